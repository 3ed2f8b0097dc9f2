package web

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The interface languages.
const (
	langZh = "zh"
	langEn = "en"
)

// langCookie remembers the language a visitor chose with ?lang=.
const langCookie = "crossrank_lang"

// text is one message in both languages.
type text struct{ En, Zh string }

func (t text) in(lang string) string {
	if lang == langZh && t.Zh != "" {
		return t.Zh
	}
	return t.En
}

// T returns the message key in lang; with args, the message is a format
// string for fmt.Sprintf. An unknown key returns the key itself, so a
// missing translation shows on the page instead of an empty string.
func T(lang, key string, args ...any) string {
	m, ok := catalog[key]
	if !ok {
		return key
	}
	if len(args) == 0 {
		return m.in(lang)
	}
	return fmt.Sprintf(m.in(lang), args...)
}

// Plural returns the message key for count n: key+".one" when n is 1 in
// English, else key+".other" (Chinese has only .other). The message may use
// %d for n.
func Plural(lang, key string, n int) string {
	form := key + ".other"
	if lang == langEn && n == 1 {
		if _, ok := catalog[key+".one"]; ok {
			form = key + ".one"
		}
	}
	m, ok := catalog[form]
	if !ok {
		return key
	}
	s := m.in(lang)
	if strings.Contains(s, "%d") {
		return fmt.Sprintf(s, n)
	}
	return s
}

// FormatDate writes a date the way each language reads it:
// 2026年11月29日 or 29 Nov 2026. Dates are shown in UTC, the time of the log.
func FormatDate(lang string, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if lang == langZh {
		return t.UTC().Format("2006年1月2日")
	}
	return t.UTC().Format("2 Jan 2006")
}

// FormatDateTime writes a date with the time of day (UTC).
func FormatDateTime(lang string, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if lang == langZh {
		return t.UTC().Format("2006年1月2日 15:04 UTC")
	}
	return t.UTC().Format("2 Jan 2006, 15:04 UTC")
}

// FormatDay formats a YYYY-MM-DD day (as evidence carries) per language;
// anything else is returned unchanged.
func FormatDay(lang, day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return FormatDate(lang, t)
}

// validLang reports whether l is an interface language.
func validLang(l string) bool { return l == langZh || l == langEn }

// chooseLang picks the request's language: a ?lang= switch (remembered in a
// cookie for a year), else the cookie, else Accept-Language. Setting a
// preference cookie on GET changes no state anyone else sees.
func (s *Server) chooseLang(w http.ResponseWriter, r *http.Request) string {
	if l := r.URL.Query().Get("lang"); validLang(l) {
		http.SetCookie(w, &http.Cookie{Name: langCookie, Value: l, Path: "/", MaxAge: 365 * 24 * 3600,
			HttpOnly: true, Secure: s.secure, SameSite: http.SameSiteLaxMode})
		return l
	}
	if c, err := r.Cookie(langCookie); err == nil && validLang(c.Value) {
		return c.Value
	}
	return negotiateLang(r.Header.Get("Accept-Language"))
}

// negotiateLang reads Accept-Language: the most preferred of zh* and en*
// wins (zh-CN, zh-Hant and zh all mean Chinese); neither means English.
func negotiateLang(header string) string {
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
		if (primary == langZh || primary == langEn) && q > 0 {
			prefs = append(prefs, pref{primary, q, i})
		}
	}
	if len(prefs) == 0 {
		return langEn
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
