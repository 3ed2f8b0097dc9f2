package desk

import "testing"

// TestEvidenceHref: only absolute http(s) URLs become links.
func TestEvidenceHref(t *testing.T) {
	tests := map[string]string{
		"https://example.com/a?b=c":   "https://example.com/a?b=c",
		"http://example.com":          "http://example.com",
		"javascript:alert(1)":         "",
		"JAVASCRIPT:alert(1)":         "",
		"data:text/html,<script>":     "",
		"//evil.example/x":            "",
		"/desk/users":                 "",
		"https://user:pw@example.com": "",
		"https://exa mple.com":        "",
		"":                            "",
	}
	for in, want := range tests {
		if got := sourceHref(in); got != want {
			t.Errorf("sourceHref(%q) = %q, want %q", in, got, want)
		}
	}
}
