package site_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web/webtest"
)

// TestPublicUnknownParams: parameters a page does not read, and values it
// does not accept, give the same body and ETag as the URL without them, and
// use the same cached body, whichever of the two URLs built it.
func TestPublicUnknownParams(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	for _, tc := range []struct{ plain, noisy string }{
		{"/r/gpu-cloud", "/r/gpu-cloud?utm_source=x"},
		{"/r/gpu-cloud", "/r/gpu-cloud?foo=1&scenario=&category=nope&all=0"},
		{"/r/gpu-cloud?scenario=training&interruptible=yes", "/r/gpu-cloud?interruptible=yes&utm_campaign=z&scenario=training&fbclid=1"},
		{"/r/gpu-cloud?scale=multi-gpu", "/r/gpu-cloud?scale=multi-gpu&scale=single-gpu&duration=forever"},
		{"/", "/?utm_source=x"},
		{"/r/gpu-cloud/e/ppio", "/r/gpu-cloud/e/ppio?ref=newsletter"},
		{"/r/gpu-cloud/editions", "/r/gpu-cloud/editions?page=2"},
		{"/r/gpu-cloud/methodology", "/r/gpu-cloud/methodology?x=y"},
		{"/feed.atom", "/feed.atom?utm_source=rss"},
		{"/feed.atom?ranking=gpu-cloud", "/feed.atom?utm_source=rss&ranking=gpu-cloud"},
		{"/api/v1/rankings", "/api/v1/rankings?utm_source=x"},
		{"/api/v1/rankings/gpu-cloud?scenario=training", "/api/v1/rankings/gpu-cloud?scenario=training&category=specialist&all=1&lang=zh"},
	} {
		// The noisy URL comes first, so it is the one that builds the body.
		res, got := e.Get(tc.noisy, "Accept-Language", "en")
		tag := res.Header.Get("ETag")
		before := webtest.CacheStats(t, e.Srv)
		res, want := e.Get(tc.plain, "Accept-Language", "en")
		if res.StatusCode != http.StatusOK || tag == "" || res.Header.Get("ETag") != tag {
			t.Errorf("%s: %d, ETag %s; %s has %s", tc.plain, res.StatusCode, res.Header.Get("ETag"), tc.noisy, tag)
		}
		if nonceAttr.ReplaceAllString(got, "") != nonceAttr.ReplaceAllString(want, "") {
			t.Errorf("%s: the body differs from %s's", tc.noisy, tc.plain)
		}
		if strings.Contains(got, "utm_") || strings.Contains(got, "fbclid") || strings.Contains(got, "newsletter") {
			t.Errorf("%s: the body carries the unknown parameters", tc.noisy)
		}
		if after := webtest.CacheStats(t, e.Srv); after.Entries != before.Entries || after.Misses != before.Misses {
			t.Errorf("%s: %d → %d cached bodies, %d → %d misses: unknown parameters made a new body",
				tc.noisy, before.Entries, after.Entries, before.Misses, after.Misses)
		}
		if res, _ := e.Get(tc.noisy, "Accept-Language", "en", "If-None-Match", tag); res.StatusCode != http.StatusNotModified {
			t.Errorf("%s with the tag of %s: %d, want 304", tc.noisy, tc.plain, res.StatusCode)
		}
	}
	// The API refuses what the page ignores, cached or not.
	e.Get("/api/v1/rankings/gpu-cloud", "Accept-Language", "en")
	for _, target := range []string{"/api/v1/rankings/gpu-cloud?interruptible=maybe", "/api/v1/rankings/gpu-cloud?scenario=nope"} {
		if res, _ := e.Get(target); res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d, want 422", target, res.StatusCode)
		}
	}
}

// nonceAttr matches the per-response CSP nonce in a page.
var nonceAttr = regexp.MustCompile(`nonce="[^"]*"`)
