package strictjson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain/strictjson"
)

// nest returns depth levels of open brackets around inner, closed or not.
func nest(open, close string, depth int, inner string, closed bool) []byte {
	s := strings.Repeat(open, depth) + inner
	if closed {
		s += strings.Repeat(close, depth)
	}
	return []byte(s)
}

// TestCheckDepth: MaxDepth levels pass; one more is refused at the path of
// the value that opens it, whether the document is closed or not.
func TestCheckDepth(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  []byte
		path string // "": accepted
	}{
		{"arrays at the limit", nest("[", "]", strictjson.MaxDepth, "1", true), ""},
		{"objects at the limit", nest(`{"a":`, "}", strictjson.MaxDepth, "1", true), ""},
		{"arrays past the limit", nest("[", "]", strictjson.MaxDepth+1, "", true), strings.Repeat("[0]", strictjson.MaxDepth)},
		{"objects past the limit", nest(`{"a":`, "}", strictjson.MaxDepth+1, "1", true), strings.TrimPrefix(strings.Repeat(".a", strictjson.MaxDepth), ".")},
		{"an unclosed megabyte of brackets", nest("[", "]", 1<<20, "", false), strings.Repeat("[0]", strictjson.MaxDepth)},
		{"deep after a wide start", []byte(`[1,2,` + string(nest("[", "]", strictjson.MaxDepth, "", true)) + `]`), "[2]" + strings.Repeat("[0]", strictjson.MaxDepth-1)},
	} {
		err := strictjson.Check(tc.doc)
		var se *strictjson.Error
		switch {
		case tc.path == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.path != "" && !errors.As(err, &se):
			t.Errorf("%s: %v, want an Error at %s", tc.name, err, tc.path)
		case tc.path != "" && (se.Path != tc.path || se.Reason != strictjson.ReasonTooDeep):
			t.Errorf("%s: refused at %q (%s), want %q (%s)", tc.name, se.Path, se.Reason, tc.path, strictjson.ReasonTooDeep)
		}
	}
}

// TestCheckMemoryLinear: nesting, the shape that cost the square of its
// depth when every level kept its own path (8,192 levels allocated about
// 100 MB), and a wide document allocate in proportion to their size: the
// decoder's tokens cost some twenty bytes a byte of input, whatever the
// shape.
func TestCheckMemoryLinear(t *testing.T) {
	for _, doc := range [][]byte{
		nest("[", "]", 8192, "", true),
		nest(`{"a":`, "}", 8192, "1", true),
		[]byte("[" + strings.Repeat(`[],{"a":[1]},`, 1<<15) + "0]"),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := strictjson.Check(doc)
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 32*uint64(len(doc))+1<<20 {
			t.Errorf("%.20s… (%d bytes, %v): %d bytes allocated; want at most 32 times the size of the document", doc, len(doc), err, got)
		}
	}
}

// FuzzCheck: Check never panics, refuses nothing encoding/json would read
// as the same document unless it breaks one of its rules, and refuses
// every document nested deeper than MaxDepth. The fuzzer builds documents
// from a depth, a width and a leaf.
func FuzzCheck(f *testing.F) {
	f.Add(uint16(1), uint16(1), "1", true)
	f.Add(uint16(strictjson.MaxDepth), uint16(3), `"x"`, false)
	f.Add(uint16(strictjson.MaxDepth+1), uint16(0), "", true)
	f.Add(uint16(5000), uint16(2), `{"a":1,"a":2}`, false)
	f.Fuzz(func(t *testing.T, depth, width uint16, leaf string, objects bool) {
		depth = depth % 4096
		width = width % 64
		var b bytes.Buffer
		for range depth {
			if objects {
				b.WriteString(`{"k":`)
			} else {
				b.WriteString("[")
			}
		}
		for i := range int(width) {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(leaf)
		}
		for range depth {
			if objects {
				b.WriteString("}")
			} else {
				b.WriteString("]")
			}
		}
		doc := b.Bytes()
		err := strictjson.Check(doc)
		var se *strictjson.Error
		if err != nil && !errors.As(err, &se) {
			t.Fatalf("Check returned %T %v, want *Error", err, err)
		}
		if int(depth) > strictjson.MaxDepth && err == nil {
			t.Fatalf("depth %d accepted", depth)
		}
		if err == nil && int(depth) <= strictjson.MaxDepth && json.Valid(doc) {
			// Numbers as json.Number, as Check reads them: a number past
			// float64's range (1.8e308 and more) is valid JSON that only
			// a float64 cannot hold, and the field it lands in refuses it
			// when the document is decoded into its request (400).
			dec := json.NewDecoder(bytes.NewReader(doc))
			dec.UseNumber()
			var v any
			if uerr := dec.Decode(&v); uerr != nil {
				t.Fatalf("a checked document does not decode: %v", uerr)
			}
		}
	})
}
