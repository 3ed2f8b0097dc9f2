package i18n

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Cookie remembers the language a visitor chose with ?lang=.
const Cookie = "crossrank_lang"

// Valid reports whether l is an interface language.
func Valid(l string) bool { return l == Zh || l == En }

// Choose picks the request's language: a ?lang= switch (remembered in a
// cookie for a year, Secure when secure is set), else the cookie, else
// Accept-Language. Setting a preference cookie on GET changes no state
// anyone else sees.
func Choose(w http.ResponseWriter, r *http.Request, secure bool) string {
	if l := r.URL.Query().Get("lang"); Valid(l) {
		http.SetCookie(w, &http.Cookie{Name: Cookie, Value: l, Path: "/", MaxAge: 365 * 24 * 3600,
			HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode})
		return l
	}
	if c, err := r.Cookie(Cookie); err == nil && Valid(c.Value) {
		return c.Value
	}
	return Negotiate(r.Header.Get("Accept-Language"))
}

// Negotiate reads Accept-Language: the most preferred of zh* and en* wins
// (zh-CN, zh-Hant and zh all mean Chinese); neither means English.
func Negotiate(header string) string {
	type pref struct {
		lang string
		q    float64
		pos  int
	}
	var prefs []pref
	for i, part := range strings.Split(header, ",") {
		if i >= 32 {
			break // a real browser sends a handful
		}
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		primary, _, _ := strings.Cut(strings.ToLower(tag), "-")
		if Valid(primary) && q > 0 {
			prefs = append(prefs, pref{lang: primary, q: q, pos: i})
		}
	}
	if len(prefs) == 0 {
		return En
	}
	slices.SortStableFunc(prefs, func(a, b pref) int {
		switch {
		case a.q > b.q:
			return -1
		case a.q < b.q:
			return 1
		}
		return a.pos - b.pos
	})
	return prefs[0].lang
}
