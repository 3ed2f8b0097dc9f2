package site

import "testing"

// TestSearchableURL: the index's keys are the ones warcio's getSurt makes
// (the expected values are its answers, warcio 2.4), so pywb and
// ReplayWeb.page find a record by its URL.
func TestSearchableURL(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"https://example.org/prices", "org,example)/prices"},
		{"https://example.org/terms?a=1&b=2", "org,example)/terms?a=1&b=2"},
		{"https://www.Example.ORG/Index.html?b=2&a=1", "org,example)/index.html?a=1&b=2"},
		{"http://www2.example.com:8080/", "com,example:8080)/"},
		{"https://example.org", "org,example)/"},
		{"https://sub.example.co.uk/a%2Fb?x=%20y&c", "uk,co,example,sub)/a%2fb?c&x=%20y"},
		{"https://wwwx.example.org/p", "org,example,wwwx)/p"},
		{"urn:x", "urn:x"},
	} {
		if got := searchableURL(c.url); got != c.want {
			t.Errorf("searchableURL(%q) = %q, want %q", c.url, got, c.want)
		}
	}
}
