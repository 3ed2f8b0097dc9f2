package web

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
)

// decodeJSON reads a JSON request body into dst, strictly: application/json
// only (415), at most MaxBody bytes (413), valid UTF-8, one object, no
// unknown fields, every field of the right type (400). An empty body is {}:
// commands without input may send none.
func decodeJSON(r *http.Request, dst any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" && !strings.HasSuffix(mt, "+json") {
			return errNotJSON
		}
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return tooBig
		}
		return malformed("reading the body: %v", err)
	}
	return decodeJSONBytes(body, dst)
}

// decodeJSONBytes decodes body into dst with decodeJSON's rules.
func decodeJSONBytes(body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	// encoding/json would replace invalid UTF-8 with U+FFFD silently.
	if !utf8.Valid(body) {
		return &badField{Field: "body", Code: "field.not_utf8"}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return malformed("the body holds more than one JSON value")
	}
	return nil
}

// jsonError turns a decoding error into a malformed-request error naming
// the field at fault, when there is one.
func jsonError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var bf *badField
	switch {
	case errors.As(err, &bf):
		return bf
	case errors.As(err, &syn):
		return malformed("JSON syntax error at byte %d", syn.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return malformed("the JSON body ends too early")
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return &badField{Field: field, Code: expected(typ.Type)}
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return &badField{Field: strings.Trim(name, `"`), Code: "field.unknown"}
	}
	return malformed("JSON: %v", err)
}

// expected returns the code of the field error saying what a field of
// type t must hold.
func expected(t reflect.Type) string {
	if t == nil {
		return "field.wrong_type"
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
