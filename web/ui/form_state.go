package ui

import (
	"net/url"

	"github.com/crossrank/crossrank/web/httpx"
)

// FormState is what a form shows after a failed submit: the message, the
// field at fault, the values typed, and the command id to resubmit with
// (nothing was written, so the same id stays valid).
type FormState struct {
	Summary   string
	Fields    map[string]string
	Values    url.Values
	CommandID string
}

// FormStateOf describes a failed submit of f for the form to re-render.
func FormStateOf(lang string, f *httpx.Form, err error) FormState {
	st := FormState{Summary: httpx.Message(lang, err), Fields: map[string]string{}}
	for _, fp := range httpx.FieldProblems(lang, err) {
		st.Fields[fp.Field] = fp.Message
	}
	if f != nil {
		st.Values, st.CommandID = f.Values(), f.CommandID()
	}
	return st
}

// Error returns the message for field, or "".
func (st FormState) Error(field string) string { return st.Fields[field] }

// Value returns the value typed into field.
func (st FormState) Value(field string) string { return st.Values.Get(field) }
