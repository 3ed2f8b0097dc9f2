// Package strictjson refuses the JSON that encoding/json would read
// silently wrong: a key twice in one object, where the last would win, and
// a lone UTF-16 surrogate escape, which would become U+FFFD. A document
// could then say one thing to a person reading it and another to the
// server. Both the ranking files and the JSON API's request bodies go
// through Check before they are decoded.
package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Error refuses a document with a duplicate key or a lone surrogate
// escape; Path names where ("entries[2].slug", "$" for the root).
type Error struct {
	Path   string
	Reason string // ReasonDuplicateKey or ReasonLoneSurrogate
}

// The reasons an Error gives.
const (
	ReasonDuplicateKey  = "duplicate key"
	ReasonLoneSurrogate = "lone surrogate escape"
)

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s", e.Path, e.Reason)
}

// frame is an object or array being read, with the path that leads to it.
type frame struct {
	object  bool
	path    string
	keys    map[string]bool
	key     string // the key whose value comes next (objects)
	haveKey bool
	index   int // the next element's index (arrays)
}

// at returns the path of the value that comes next in f (f nil: the root).
func (f *frame) at() string {
	switch {
	case f == nil:
		return "$"
	case f.object && f.path == "":
		return f.key
	case f.object:
		return f.path + "." + f.key
	}
	return f.path + "[" + strconv.Itoa(f.index) + "]"
}

// done records that f's next value was read.
func (f *frame) done() {
	if f == nil {
		return
	}
	if f.object {
		f.haveKey = false
	} else {
		f.index++
	}
}

// Check walks b's tokens and returns an *Error for the first duplicate
// key or lone surrogate escape. A syntax error is left to the decoder,
// which reports it with its offset.
func Check(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var stack []*frame
	var prev int64
	for {
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			return nil
		}
		raw := b[prev:dec.InputOffset()]
		prev = dec.InputOffset()
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				path := top.at()
				if path == "$" {
					path = ""
				}
				stack = append(stack, &frame{object: t == '{', path: path, keys: map[string]bool{}})
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
					return &Error{Path: top.at(), Reason: ReasonLoneSurrogate}
				}
				if top.keys[t] {
					return &Error{Path: top.at(), Reason: ReasonDuplicateKey}
				}
				top.keys[t] = true
				continue
			}
			if loneSurrogate(raw) {
				return &Error{Path: top.at(), Reason: ReasonLoneSurrogate}
			}
			top.done()
		default:
			top.done()
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
