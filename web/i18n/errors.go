package i18n

import (
	"errors"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// coded is an error that carries its catalog key: domain.Error and the web
// layer's own errors.
type coded interface{ Code() string }

// storeCodes gives the event store's errors, which carry no code (the
// events package knows nothing of languages), their catalog keys.
var storeCodes = []struct {
	err  error
	code string
}{
	{err: events.ErrConflict, code: "store.conflict"},
	{err: events.ErrUnavailable, code: "store.unavailable"},
	{err: events.ErrTooLarge, code: "store.too_large"},
}

// Error returns the words a user reads for err, in lang: the message of its
// code, the first one found unwrapping it. It never shows the text of an
// error without a code, which may hold internals.
func Error(lang string, err error) string {
	if w := (*Worded)(nil); errors.As(err, &w) {
		return w.In(lang)
	}
	var fe *domain.FieldError
	if errors.As(err, &fe) {
		return Field(lang, fe)
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return T(lang, "request.too_large")
	}
	var se *domain.StateError
	if errors.As(err, &se) && Has(se.Code()) {
		return se.Args.Fill(T(lang, se.Code()))
	}
	var full *events.StorageFullError
	if errors.As(err, &full) {
		return T(lang, "store.disk_full", full.Path)
	}
	var c coded
	if errors.As(err, &c) && Has(c.Code()) {
		return T(lang, c.Code())
	}
	for _, s := range storeCodes {
		if errors.Is(err, s.err) {
			return T(lang, s.code)
		}
	}
	return T(lang, "internal")
}

// Field puts a field error into words, naming the field: "Title is
// required." / "标题为必填项。" A code without words shows the code.
func Field(lang string, fe *domain.FieldError) string {
	label := fieldLabel(lang, fe.Field)
	m, ok := catalog(lang)[fe.Code]
	if !ok {
		return label + ": " + fe.Code
	}
	m = strings.NewReplacer("{Field}", upperFirst(label), "{field}", label).Replace(m)
	return fe.Args.Fill(m)
}

// fieldLabel names a field: "name.zh" → "name (Chinese)" / "名称（中文）".
// A field without a name in the catalog is shown as it is spelled.
func fieldLabel(lang, field string) string {
	base, sub, _ := strings.Cut(field, ".")
	c := catalog(lang)
	out, ok := c["label."+base]
	if !ok {
		out = base
	}
	if sub == Zh || sub == En {
		out += c["label.in_"+sub]
	}
	return out
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
