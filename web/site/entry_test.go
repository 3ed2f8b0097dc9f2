package site

import (
	"testing"
)

func TestPublicSourceHref(t *testing.T) {
	for raw, want := range map[string]string{
		"https://example.org/a?b=1":   "https://example.org/a?b=1",
		"http://example.org":          "http://example.org",
		"javascript:alert(1)":         "",
		"JAVASCRIPT:alert(1)":         "",
		"data:text/html,<b>x</b>":     "",
		"ftp://example.org/file":      "",
		"//example.org/x":             "",
		"/local/path":                 "",
		"《文章》":                        "",
		"https://user:pw@example.org": "",
		"":                            "",
	} {
		if got := sourceHref(raw); got != want {
			t.Errorf("sourceHref(%q) = %q, want %q", raw, got, want)
		}
	}
}
