package domain

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/crossrank/crossrank/events"
)

// TextField is a claim or a rationale as a ranking file or an API request
// gives it: either the bilingual object {"zh": …, "en": …} (either may be
// empty or absent), or, as every file and client wrote before claims became
// bilingual (issue 43), one string, read as the language it is written in
// exactly as the events' upcaster reads a stored one (events.TextFrom), so
// an old file imports as its events would replay. It encodes as the object:
// what Crossrank writes is always bilingual.
type TextField events.Text

// Text returns f as the events' Text.
func (f TextField) Text() events.Text { return events.Text(f) }

// UnmarshalJSON reads either form. The object is read as strictly as the
// document around it: a key other than zh and en is refused, not dropped.
func (f *TextField) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = TextField(events.TextFrom(s))
		return nil
	case len(b) > 0 && b[0] == '{':
		d := json.NewDecoder(bytes.NewReader(b))
		d.DisallowUnknownFields()
		var t events.Text
		if err := d.Decode(&t); err != nil {
			return err
		}
		*f = TextField(t)
		return nil
	case string(b) == "null":
		return nil
	}
	// A type error, so that the decoder names the field (web/httpx words
	// it as field.bilingual).
	return &json.UnmarshalTypeError{Value: "neither a string nor an object", Type: reflect.TypeFor[TextField]()}
}
