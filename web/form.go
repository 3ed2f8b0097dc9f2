package web

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

// commandIDField is the hidden field every command form carries: the
// command id that makes a double submit one event.
const commandIDField = "cmd_id"

// form is a posted form whose every name and value is valid UTF-8. Its
// getters collect type errors (a number field holding letters) so a
// decoder reads every field and reports the first problem.
type form struct {
	values url.Values
	err    error
}

// parseForm reads an application/x-www-form-urlencoded body (at most MaxBody
// bytes: 413). Another content type is 415; a body that does not parse, has
// too many fields or is not UTF-8 is 400. Query parameters are not form
// values: a command's input comes from its body and its path alone.
func parseForm(r *http.Request) (*form, error) {
	if r.Method != http.MethodPost {
		return nil, malformed("a form must be posted")
	}
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/x-www-form-urlencoded" {
		return nil, errNotForm
	}
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, tooBig
		}
		return nil, malformed("form: %v", err)
	}
	return checkForm(r.PostForm)
}

// checkForm accepts values as a form when they are valid UTF-8 and not too many.
func checkForm(values url.Values) (*form, error) {
	n := 0
	for k, vs := range values {
		if !utf8.ValidString(k) {
			return nil, malformed("a field name is not UTF-8")
		}
		for _, v := range vs {
			n++
			if !utf8.ValidString(v) {
				return nil, &badField{Field: k, Code: "field.not_utf8"}
			}
		}
	}
	if n > maxFormFields {
		return nil, malformed("%d form fields; the limit is %d", n, maxFormFields)
	}
	return &form{values: values}, nil
}

// str returns a field's first value ("" when absent).
func (f *form) str(name string) string { return f.values.Get(name) }

// strs returns all values of a repeated field (checkboxes), dropping empty ones.
func (f *form) strs(name string) []string {
	var out []string
	for _, v := range f.values[name] {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// lines returns the non-empty lines of a text field (a list typed one per
// line) or of a repeated field.
func (f *form) lines(name string) []string {
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

// int returns a whole-number field; "" is 0. Anything else records a field
// error, which the form shows next to the field (422).
func (f *form) int(name string) int {
	v := strings.TrimSpace(f.str(name))
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n > 1<<30 || n < -(1<<30) {
		f.fieldErr(name, "field.whole_number")
		return 0
	}
	return n
}

// bool reports whether a checkbox is checked.
func (f *form) bool(name string) bool {
	switch f.str(name) {
	case "", "0", "false", "off":
		return false
	}
	return true
}

func (f *form) fieldErr(name, code string) {
	if f.err == nil {
		f.err = &domain.FieldError{Field: name, Code: code}
	}
}

// commandID returns the form's command id.
func (f *form) commandID() string { return f.str(commandIDField) }

// formState is what a form shows after a failed submit: the message, the
// field at fault, the values typed, and the command id to resubmit with
// (nothing was written, so the same id stays valid).
type formState struct {
	Summary   string
	Fields    map[string]string
	Values    url.Values
	CommandID string
}

// formStateOf describes a failed submit of f for the form to re-render.
func formStateOf(lang string, f *form, err error) formState {
	st := formState{Summary: messageOf(lang, err), Fields: map[string]string{}}
	for _, fp := range fieldProblemsOf(lang, err) {
		st.Fields[fp.Field] = fp.Message
	}
	if f != nil {
		st.Values, st.CommandID = f.values, f.commandID()
	}
	return st
}

// Error returns the message for field, or "".
func (st formState) Error(field string) string { return st.Fields[field] }

// Value returns the value typed into field.
func (st formState) Value(field string) string { return st.Values.Get(field) }
