package httpx

import (
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/crossrank/crossrank/domain"
)

// maxFormFields bounds the fields of one form; the longest real form (a
// vote listing every evidence item) stays far below.
const maxFormFields = 1000

// CommandIDField is the hidden field every command form carries: the
// command id that makes a double submit one event.
const CommandIDField = "cmd_id"

// Form is a posted form whose every name and value is valid UTF-8. Its
// getters collect type errors (a number field holding letters) so a
// decoder reads every field and reports the first problem.
type Form struct {
	values url.Values
	err    error
}

// NewForm returns the form of values, unchecked (tests, fuzzing).
func NewForm(values url.Values) *Form { return &Form{values: values} }

// Values returns every field as posted.
func (f *Form) Values() url.Values { return f.values }

// Err returns the first field error a getter recorded, or nil.
func (f *Form) Err() error { return f.err }

// ParseForm reads an application/x-www-form-urlencoded body (at most MaxBody
// bytes: 413). Another content type is 415; a body that does not parse, has
// too many fields or is not UTF-8 is 400. Query parameters are not form
// values: a command's input comes from its body and its path alone.
func ParseForm(r *http.Request) (*Form, error) {
	if r.Method != http.MethodPost {
		return nil, Malformed("a form must be posted")
	}
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/x-www-form-urlencoded" {
		return nil, ErrNotForm
	}
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, tooBig
		}
		return nil, Malformed("form: %v", err)
	}
	return CheckForm(r.PostForm)
}

// CheckForm accepts values as a form when they are valid UTF-8 and not too many.
func CheckForm(values url.Values) (*Form, error) {
	n := 0
	for k, vs := range values {
		if !utf8.ValidString(k) {
			return nil, Malformed("a field name is not UTF-8")
		}
		for _, v := range vs {
			n++
			if !utf8.ValidString(v) {
				return nil, &BadField{Field: k, Code: "field.not_utf8"}
			}
		}
	}
	if n > maxFormFields {
		return nil, Malformed("%d form fields; the limit is %d", n, maxFormFields)
	}
	return &Form{values: values}, nil
}

// Str returns a field's first value ("" when absent).
func (f *Form) Str(name string) string { return f.values.Get(name) }

// Strs returns all values of a repeated field (checkboxes), dropping empty ones.
func (f *Form) Strs(name string) []string {
	var out []string
	for _, v := range f.values[name] {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// Lines returns the non-empty lines of a text field (a list typed one per
// line) or of a repeated field.
func (f *Form) Lines(name string) []string {
	var out []string
	for _, v := range f.values[name] {
		for _, l := range strings.Split(v, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
	}
	return out
}

// Int returns a whole-number field; "" is 0. Anything else records a field
// error, which the form shows next to the field (422).
func (f *Form) Int(name string) int {
	v := strings.TrimSpace(f.Str(name))
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n > 1<<30 || n < -(1<<30) {
		f.FieldErr(name, "field.whole_number")
		return 0
	}
	return n
}

// Bool reports whether a checkbox is checked.
func (f *Form) Bool(name string) bool {
	switch f.Str(name) {
	case "", "0", "false", "off":
		return false
	}
	return true
}

// FieldErr records that field name broke the rule code, unless an earlier
// field did.
func (f *Form) FieldErr(name, code string) {
	if f.err == nil {
		f.err = &domain.FieldError{Field: name, Code: code}
	}
}

// CommandID returns the form's command id.
func (f *Form) CommandID() string { return f.Str(CommandIDField) }
