package i18n

import "time"

// Date writes a date the way each language reads it: 2026年11月29日 or
// 29 Nov 2026. Dates are shown in UTC, the time of the log; the zero time
// is "".
func Date(lang string, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if lang == Zh {
		return t.UTC().Format("2006年1月2日")
	}
	return t.UTC().Format("2 Jan 2006")
}

// DateTime writes a date with the time of day (UTC).
func DateTime(lang string, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if lang == Zh {
		return t.UTC().Format("2006年1月2日 15:04 UTC")
	}
	return t.UTC().Format("2 Jan 2006, 15:04 UTC")
}

// Day writes a YYYY-MM-DD day (as evidence carries) per language; anything
// else is returned unchanged.
func Day(lang, day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return Date(lang, t)
}
