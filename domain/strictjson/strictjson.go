// Package strictjson refuses the JSON that encoding/json would read
// silently wrong: a key twice in one object, where the last would win, and
// a lone UTF-16 surrogate escape, which would become U+FFFD. A document
// could then say one thing to a person reading it and another to the
// server. It also refuses nesting deeper than MaxDepth, which nothing
// needs and which would make every later reader of the document pay. Both the ranking files and the JSON API's request bodies go
// through Check before they are decoded.
package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// MaxDepth is how deeply objects and arrays may nest. No document this
// project reads comes near it; a deeper one is refused before it costs
// more than its size.
const MaxDepth = 64

// Error refuses a document with a duplicate key, a lone surrogate escape
// or nesting deeper than MaxDepth; Path names where ("entries[2].slug",
// "$" for the root).
type Error struct {
	Path   string
	Reason string // ReasonDuplicateKey, ReasonLoneSurrogate or ReasonTooDeep
}

// The reasons an Error gives.
const (
	ReasonDuplicateKey  = "duplicate key"
	ReasonLoneSurrogate = "lone surrogate escape"
	ReasonTooDeep       = "nested too deeply"
)

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s", e.Path, e.Reason)
}

// frame is an object or array being read. It holds no path: the path is
// built from the whole stack only for an error, so a deep document costs
// one small frame a level, not a path a level.
type frame struct {
	object  bool
	first   string              // objects: the first key
	keys    map[string]struct{} // objects: every key, from the second on (nil before)
	key     string              // the key whose value comes next (objects)
	haveKey bool
	index   int // arrays: the next element's index; objects: how many keys
}

// done records that f's next value was read.
func (f *frame) done() {
	if f.object {
		f.haveKey = false
	} else {
		f.index++
	}
}

// twice records key in object f and reports whether f held it already.
// Most objects this project reads are small, so the map is made only for a
// second key.
func (f *frame) twice(key string) bool {
	switch {
	case f.index == 0:
		f.first = key
	case f.keys == nil:
		if key == f.first {
			return true
		}
		f.keys = map[string]struct{}{f.first: {}, key: {}}
	default:
		if _, ok := f.keys[key]; ok {
			return true
		}
		f.keys[key] = struct{}{}
	}
	f.index++ // objects count their keys
	return false
}

// path returns the path of the value that comes next in the innermost
// frame of stack ("$" for the root).
func path(stack []frame) string {
	if len(stack) == 0 {
		return "$"
	}
	var b strings.Builder
	for i := range stack {
		f := &stack[i]
		switch {
		case f.object && b.Len() == 0:
			b.WriteString(f.key)
		case f.object:
			b.WriteString(".")
			b.WriteString(f.key)
		default:
			b.WriteString("[")
			b.WriteString(strconv.Itoa(f.index))
			b.WriteString("]")
		}
	}
	return b.String()
}

// Check walks b's tokens and returns an *Error for the first duplicate
// key, lone surrogate escape or value nested deeper than MaxDepth. Its time
// and memory are linear in len(b). A syntax error is left to the decoder,
// which reports it with its offset.
func Check(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var stack []frame
	var prev int64
	for {
		tok, err := dec.Token()
		if err != nil { // io.EOF, or a syntax error the decoder reports
			return nil
		}
		raw := b[prev:dec.InputOffset()]
		prev = dec.InputOffset()
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				if len(stack) == MaxDepth {
					return &Error{Path: path(stack), Reason: ReasonTooDeep}
				}
				stack = append(stack, frame{object: t == '{'})
				continue
			}
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				stack[len(stack)-1].done()
			}
		case string:
			if top != nil && top.object && !top.haveKey {
				top.key, top.haveKey = t, true
				if loneSurrogate(raw) {
					return &Error{Path: path(stack), Reason: ReasonLoneSurrogate}
				}
				if top.twice(t) {
					return &Error{Path: path(stack), Reason: ReasonDuplicateKey}
				}
				continue
			}
			if loneSurrogate(raw) {
				return &Error{Path: path(stack), Reason: ReasonLoneSurrogate}
			}
			if top != nil {
				top.done()
			}
		default:
			if top != nil {
				top.done()
			}
		}
	}
}

// loneSurrogate reports whether raw JSON text holds a \u escape of a UTF-16
// surrogate that is not half of a high–low pair.
func loneSurrogate(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' || i+1 >= len(raw) {
			continue
		}
		if raw[i+1] != 'u' {
			i++ // an escaped character, perhaps a backslash
			continue
		}
		r, ok := hex4(raw, i+2)
		if !ok {
			continue
		}
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return true // a low half first
		case r >= 0xD800 && r <= 0xDBFF:
			if i+7 >= len(raw) || raw[i+6] != '\\' || raw[i+7] != 'u' {
				return true
			}
			lo, ok := hex4(raw, i+8)
			if !ok || lo < 0xDC00 || lo > 0xDFFF {
				return true
			}
			i += 11 // the pair
			continue
		}
		i += 5
	}
	return false
}

// hex4 reads four hex digits at raw[at:].
func hex4(raw []byte, at int) (rune, bool) {
	if at+4 > len(raw) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(raw[at:at+4]), 16, 32)
	return rune(n), err == nil
}
