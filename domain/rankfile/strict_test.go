package rankfile_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/domain/strictjson"
)

// TestDecodeRefusesDuplicateKeysAndLoneSurrogates: encoding/json would
// let the last key win and replace a lone surrogate with U+FFFD, silently;
// the ranking file refuses both, naming the JSON path.
func TestDecodeRefusesDuplicateKeysAndLoneSurrogates(t *testing.T) {
	const head = `{"format":"crossrank.ranking/v1",`
	entry := func(name string) string {
		return `{"slug":"a","name":{"zh":"甲","en":` + name + `},"category":"c","description":{"zh":"","en":""}}`
	}
	for _, tc := range []struct {
		name, doc, path string // path "": accepted
	}{
		{"slug twice", head + `"slug":"x","slug":"y","methodology":{}}`, "slug"},
		{"a nested key twice", head + `"slug":"x","methodology":{"title":{"zh":"甲","zh":"乙","en":"A"}}}`, "methodology.title.zh"},
		{"a key twice in an entry", head + `"slug":"x","methodology":{},"entries":[` + entry(`"A"`) + `,{"slug":"b","slug":"c"}]}`, "entries[1].slug"},
		{"a lone high surrogate", head + `"slug":"x","methodology":{},"entries":[` + entry(`"A"`) + `,` + entry(`"B\ud800"`) + `]}`, "entries[1].name.en"},
		{"a lone low surrogate", head + `"slug":"x","methodology":{"title":{"zh":"\udc00","en":"A"}}}`, "methodology.title.zh"},
		{"a high surrogate before another escape", head + `"slug":"x","methodology":{"title":{"zh":"\ud800\u0041","en":"A"}}}`, "methodology.title.zh"},
		{"a lone surrogate in a key", head + `"slug":"x","methodology":{},"\ud800":1}`, "\ufffd"},
		{"a surrogate pair", head + `"slug":"x","methodology":{"title":{"zh":"\ud83d\ude00","en":"A"}}}`, ""},
		{"an escaped backslash before u", head + `"slug":"x","methodology":{"title":{"zh":"\\ud800","en":"A"}}}`, ""},
		{"equal keys in two objects", head + `"slug":"x","methodology":{},"entries":[` + entry(`"A"`) + `,` + entry(`"B"`) + `]}`, ""},
	} {
		_, err := rankfile.Decode(bytes.NewReader([]byte(tc.doc)))
		var se *rankfile.StrictError
		switch {
		case tc.path == "" && errors.As(err, &se):
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.path != "" && !errors.As(err, &se):
			t.Errorf("%s: %v, want a StrictError at %s", tc.name, err, tc.path)
		case tc.path != "" && se.Path != tc.path:
			t.Errorf("%s: refused at %q, want %q", tc.name, se.Path, tc.path)
		}
	}
}

// TestDecodeRefusesDeepNesting: a ranking file nested past
// strictjson.MaxDepth is refused as a mistake of the file, naming the
// limit, before the decoder or the locator walk it.
func TestDecodeRefusesDeepNesting(t *testing.T) {
	doc := `{"format":"crossrank.ranking/v1","slug":"x","methodology":{},"entries":` +
		strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20) + `}`
	_, err := rankfile.Decode(strings.NewReader(doc))
	var fe *domain.FieldError
	if !errors.As(err, &fe) || fe.Code != "field.too_deep" || fe.Args["limit"] != strictjson.MaxDepth {
		t.Fatalf("Decode: %v, want field.too_deep naming the limit %d", err, strictjson.MaxDepth)
	}
}
