package domain

import (
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Field limits, in runes.
const (
	MaxTitle     = 200
	MaxShortText = 500
	MaxLongText  = 5000
	MaxExcerpt   = 2000
	MaxURL       = 2000
	MaxTags      = 50
	MaxListItems = 100
)

// checkText validates a user-supplied string: valid UTF-8, no control
// characters except newline and tab, at most max runes, and present when required.
func checkText(field, s string, max int, required bool) error {
	if !utf8.ValidString(s) {
		return invalid(field, "field.not_utf8", nil)
	}
	if required && strings.TrimSpace(s) == "" {
		return invalid(field, "field.required", nil)
	}
	if n := utf8.RuneCountInString(s); n > max {
		return invalid(field, "field.too_long", Args{"length": n, "limit": max})
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r' {
			return invalid(field, "field.control_char", nil)
		}
	}
	return nil
}

// checkName validates a name or a title — text that identifies something
// and is shown inline among other words (an entry's or a ranking's name, a
// display name, a token name): checkText's rules, one line (no control
// character at all: a CR or LF in a display name breaks the mail headers,
// CSV rows and log lines it is written into, and a tab or a newline in a
// name shows nowhere as what it is), and no invisible formatting
// character. A bidirectional override there could make one
// name read as another, or reorder the words around it; a zero-width
// character makes two names that look alike differ. Slugs and usernames
// need no such check: they are ASCII by their own rules.
//
// Free text (claims, excerpts, rationales, notes, reasons) keeps these
// characters: right-to-left quotations may need them, and a text is
// shown as a whole. The pages isolate it instead (dir="auto" or <bdi>),
// so it cannot reorder what surrounds it.
func checkName(field, s string, max int, required bool) error {
	if err := checkText(field, s, max, required); err != nil {
		return err
	}
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return invalid(field, "field.control_char", nil)
	}
	if strings.IndexFunc(s, invisibleFormat) >= 0 {
		return invalid(field, "field.invisible_char", nil)
	}
	return nil
}

// invisibleFormat reports whether r is a bidirectional control (U+061C,
// U+200E–U+200F, U+202A–U+202E, U+2066–U+2069) or a zero-width character
// (U+200B–U+200D, U+2060, U+FEFF).
func invisibleFormat(r rune) bool {
	switch {
	case unicode.Is(unicode.Bidi_Control, r):
		return true
	case r >= 0x200B && r <= 0x200D, r == 0x2060, r == 0xFEFF:
		return true
	}
	return false
}

// checkI18nName is checkI18n for a name: see checkName.
func checkI18nName(field string, zh, en string, max int, required bool) error {
	if err := checkName(field+".zh", zh, max, false); err != nil {
		return err
	}
	if err := checkName(field+".en", en, max, false); err != nil {
		return err
	}
	return checkI18n(field, zh, en, max, required)
}

func checkI18n(field string, zh, en string, max int, required bool) error {
	if err := checkText(field+".zh", zh, max, false); err != nil {
		return err
	}
	if err := checkText(field+".en", en, max, false); err != nil {
		return err
	}
	if required && strings.TrimSpace(zh) == "" && strings.TrimSpace(en) == "" {
		return invalid(field, "field.required_in_one", nil)
	}
	return nil
}

// CheckURL accepts only absolute http and https URLs with a host: no
// javascript:, data: or relative links ever reach a page.
func CheckURL(field, raw string) error {
	if err := checkText(field, raw, MaxURL, false); err != nil {
		return err
	}
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return invalid(field, "field.url_scheme", nil)
	}
	if strings.ContainsAny(raw, " \t\n\r\"'<>\\") {
		return invalid(field, "field.url_chars", nil)
	}
	return nil
}

// CheckSlug accepts 1–60 of [a-z0-9-], starting with a letter or digit.
func CheckSlug(field, s string) error {
	if len(s) == 0 || len(s) > 60 || s[0] == '-' {
		return invalid(field, "field.slug", nil)
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return invalid(field, "field.slug", nil)
		}
	}
	return nil
}

func checkDate(field, s string, required bool) error {
	if s == "" && !required {
		return nil
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return invalid(field, "field.date", nil)
	}
	return nil
}

func checkScore(field string, v int) error {
	if v < MinScore || v > MaxScore {
		return invalid(field, "field.score", Args{"min": MinScore, "max": MaxScore})
	}
	return nil
}

func checkTags(field string, tags []string) error {
	if len(tags) > MaxTags {
		return invalid(field, "field.too_many_tags", Args{"count": len(tags), "limit": MaxTags})
	}
	seen := map[string]bool{}
	for _, t := range tags {
		if err := CheckSlug(field, t); err != nil {
			return err
		}
		if seen[t] {
			return invalid(field, "field.repeats", Args{"value": t})
		}
		seen[t] = true
	}
	return nil
}

func checkWeights(field string, w map[string]int, criteria []string) error {
	sum := 0
	known := map[string]bool{}
	for _, c := range criteria {
		known[c] = true
	}
	for c, v := range w {
		if !known[c] {
			return invalid(field, "ranking.unknown_criterion", Args{"criterion": c})
		}
		if v < 0 || v > 100 {
			return invalid(field, "ranking.weight_range", Args{"criterion": c})
		}
		sum += v
	}
	if sum != 100 {
		return invalid(field, "ranking.weight_sum", Args{"sum": sum})
	}
	return nil
}
