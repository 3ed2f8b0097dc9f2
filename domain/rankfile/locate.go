package rankfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/crossrank/crossrank/domain"
)

// A Locator places a file's problems on their lines and columns.
type Locator interface {
	Locate(ps Problems)
}

// JSONLocator places a ranking file's problems on the line and column
// where the value their path names begins.
type JSONLocator struct{ data []byte }

// LocateJSON returns the locator for the ranking file data.
func LocateJSON(data []byte) *JSONLocator { return &JSONLocator{data: data} }

// Locate walks the document once, looking for every problem's path (its
// field's, else its own, else the nearest enclosing value's).
func (l *JSONLocator) Locate(ps Problems) {
	want := map[string]bool{}
	for _, p := range ps {
		for _, path := range candidates(p) {
			want[path] = true
		}
	}
	found := l.offsets(want)
	for i := range ps {
		if ps[i].Line > 0 {
			continue
		}
		for _, path := range candidates(ps[i]) {
			if off, ok := found[path]; ok {
				ps[i].Line, ps[i].Column = lineColumn(l.data, off)
				break
			}
		}
	}
}

// candidates are the paths a problem may be placed at, the most exact first.
func candidates(p Problem) []string {
	var out []string
	var fe *domain.FieldError
	if errors.As(p.Err, &fe) && fe.Field != "" {
		out = append(out, joinPath(p.Path, fe.Field))
	}
	for path := p.Path; path != ""; path = parentPath(path) {
		out = append(out, path)
	}
	return out
}

func joinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// locFrame is an object or array the locator's walk is inside.
type locFrame struct {
	path      string
	object    bool
	expectKey bool   // an object's next token is a key
	key       string // an object's current key
	index     int    // an array's current element
}

// offsets returns the byte offset at which each wanted path's value begins.
func (l *JSONLocator) offsets(want map[string]bool) map[string]int {
	found := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(l.data))
	var stack []*locFrame
	next := func() { // the current value of the innermost frame is done
		if len(stack) == 0 {
			return
		}
		if top := stack[len(stack)-1]; top.object {
			top.expectKey = true
		} else {
			top.index++
		}
	}
	for len(found) < len(want) {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil { // io.EOF, or a file Decode refused: place what was found
			break
		}
		d, isDelim := tok.(json.Delim)
		var top *locFrame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if isDelim && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			next()
			continue
		}
		if top != nil && top.object && top.expectKey {
			top.key, _ = tok.(string)
			top.expectKey = false
			continue
		}
		path := ""
		switch {
		case top == nil:
		case top.object:
			path = joinPath(top.path, top.key)
		default:
			path = fmt.Sprintf("%s[%d]", top.path, top.index)
		}
		if want[path] {
			found[path] = valueStart(l.data, int(off))
		}
		if isDelim {
			stack = append(stack, &locFrame{path: path, object: d == '{', expectKey: d == '{'})
			continue
		}
		next()
	}
	return found
}

// valueStart skips the separators between the previous token and a value.
func valueStart(data []byte, off int) int {
	for off < len(data) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	return off
}

// lineColumn turns a byte offset into a 1-based line and column (in
// characters, not bytes).
func lineColumn(data []byte, off int) (int, int) {
	off = min(off, len(data))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, len([]rune(string(before[start:]))) + 1
}

// DecodeProblem turns Decode's error into a Problem, placed on its line
// and column when the JSON decoder said where it stopped.
func DecodeProblem(data []byte, err error) Problem {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	p := Problem{Err: err}
	switch {
	case errors.As(err, &syn):
		p.Line, p.Column = lineColumn(data, int(syn.Offset))
	case errors.As(err, &typ):
		p.Line, p.Column = lineColumn(data, int(typ.Offset))
	case errors.Is(err, io.ErrUnexpectedEOF):
		p.Line, p.Column = lineColumn(data, len(data))
	}
	return p
}
