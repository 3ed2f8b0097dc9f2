package web

import (
	"net/http"

	"github.com/crossrank/crossrank/web/i18n"
)

// The interface languages.
const (
	langZh = i18n.Zh
	langEn = i18n.En
)

// T returns the message key in lang (see i18n.T).
func T(lang, key string, args ...any) string { return i18n.T(lang, key, args...) }

// Plural returns the form of message key for count n (see i18n.Plural).
func Plural(lang, key string, n int) string { return i18n.Plural(lang, key, n) }

// chooseLang picks the request's language (see i18n.Choose).
func (s *Server) chooseLang(w http.ResponseWriter, r *http.Request) string {
	return i18n.Choose(w, r, s.secure)
}
