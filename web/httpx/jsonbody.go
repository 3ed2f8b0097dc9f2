package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/domain/strictjson"
	"github.com/crossrank/crossrank/web/paths"
)

// MaxBody bounds every request body: forms and JSON alike. Past it the
// request fails with 413.
const MaxBody = 1 << 20

// MaxUpload bounds the body of the uploads of a file to import: the
// largest ranking file with room for the form around it.
const MaxUpload = rankfile.MaxSize + 1<<20

// LimitBody caps the body of every request at MaxBody, and of the file
// imports (paths.Import, paths.APIImports) at MaxUpload; reading past it
// fails with *http.MaxBytesError, which Status maps to 413.
func LimitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit := int64(MaxBody)
		if r.Method == http.MethodPost && (r.URL.Path == paths.Import || r.URL.Path == paths.APIImports) {
			limit = MaxUpload
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		next.ServeHTTP(w, r)
	})
}

// DecodeJSON reads a JSON request body into dst, strictly: application/json
// only (415), at most MaxBody bytes (413), valid UTF-8, one object, no
// unknown fields, no key twice, no lone surrogate escape, no nesting deeper
// than strictjson.MaxDepth, every field of
// the right type (400). An empty body is {}:
// commands without input may send none.
func DecodeJSON(r *http.Request, dst any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" && !strings.HasSuffix(mt, "+json") {
			return ErrNotJSON
		}
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return tooBig
		}
		return Malformed("reading the body: %v", err)
	}
	return DecodeJSONBytes(body, dst)
}

// DecodeJSONBytes decodes body into dst with DecodeJSON's rules.
func DecodeJSONBytes(body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	// encoding/json would replace invalid UTF-8 with U+FFFD silently.
	if !utf8.Valid(body) {
		return &BadField{Field: "body", Code: "field.not_utf8"}
	}
	// encoding/json would let the last of two equal keys win, silently;
	// and deep nesting would cost every reader of the body more than its
	// size. Check runs in time and memory linear in the body.
	if err := strictjson.Check(body); err != nil {
		var se *strictjson.Error
		errors.As(err, &se)
		switch se.Reason {
		case strictjson.ReasonTooDeep:
			return &BadField{Field: "body", Code: "field.too_deep", Args: domain.Args{"limit": strictjson.MaxDepth}}
		case strictjson.ReasonLoneSurrogate:
			return &BadField{Field: se.Path, Code: "field.lone_surrogate"}
		}
		return &BadField{Field: se.Path, Code: "field.duplicate_key"}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Malformed("the body holds more than one JSON value")
	}
	return nil
}

// jsonError turns a decoding error into a malformed-request error naming
// the field at fault, when there is one.
func jsonError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var bf *BadField
	switch {
	case errors.As(err, &bf):
		return bf
	case errors.As(err, &syn):
		return Malformed("JSON syntax error at byte %d", syn.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Malformed("the JSON body ends too early")
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return &BadField{Field: field, Code: expected(typ.Type)}
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return &BadField{Field: strings.Trim(name, `"`), Code: "field.unknown"}
	}
	return Malformed("JSON: %v", err)
}

// expected returns the code of the field error saying what a field of
// type t must hold.
func expected(t reflect.Type) string {
	if t == nil {
		return "field.wrong_type"
	}
	if t == reflect.TypeFor[domain.TextField]() { // a claim or a rationale
		return "field.bilingual"
	}
	switch t.Kind() {
	case reflect.String:
		return "field.text"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "field.whole_number"
	case reflect.Float32, reflect.Float64:
		return "field.number"
	case reflect.Bool:
		return "field.bool"
	case reflect.Slice, reflect.Array:
		return "field.list"
	case reflect.Struct, reflect.Map, reflect.Pointer:
		return "field.object"
	}
	return "field.wrong_type"
}
