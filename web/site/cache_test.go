package site_test

import (
	"net/http"
	"testing"
)

// TestPublicETag shows the validators change exactly when an edition is
// published: not on a vote (which commits to the read models too), always
// on a publish; a current copy is answered 304.
func TestPublicETag(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	targets := []string{"/", "/r/gpu-cloud", "/r/gpu-cloud?scenario=training&interruptible=yes", "/r/gpu-cloud/e/ppio",
		"/r/gpu-cloud/editions", "/r/gpu-cloud/methodology", "/feed.atom",
		"/api/v1/rankings", "/api/v1/rankings/gpu-cloud", "/api/v1/rankings/gpu-cloud/editions/1", "/api/v1/rankings/gpu-cloud/entries/ppio"}
	tags := func() map[string]string {
		out := map[string]string{}
		for _, target := range targets {
			res, body := e.Get(target, "Accept-Language", "en")
			tag := res.Header.Get("ETag")
			if res.StatusCode != http.StatusOK || tag == "" {
				t.Fatalf("GET %s: %d, ETag %q: %.200s", target, res.StatusCode, tag, body)
			}
			if cc := res.Header.Get("Cache-Control"); cc != "public, no-cache" {
				t.Errorf("%s: Cache-Control %q", target, cc)
			}
			out[target] = tag
		}
		return out
	}
	before := tags()
	res, _ := e.Get("/r/gpu-cloud", "Accept-Language", "en", "If-None-Match", before["/r/gpu-cloud"])
	if res.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match with the current tag: %d, want 304", res.StatusCode)
	}
	if lm := res.Header.Get("Last-Modified"); lm == "" {
		t.Error("no Last-Modified")
	} else if res, _ := e.Get("/api/v1/rankings/gpu-cloud", "If-Modified-Since", lm); res.StatusCode != http.StatusNotModified {
		t.Errorf("If-Modified-Since the edition: %d, want 304", res.StatusCode)
	}
	if res, _ := e.Get("/r/gpu-cloud", "Accept-Language", "zh-CN", "If-None-Match", before["/r/gpu-cloud"]); res.StatusCode != http.StatusOK {
		t.Errorf("the Chinese page answered 304 to the English tag")
	}

	e.Vote()
	for target, tag := range tags() {
		if tag != before[target] {
			t.Errorf("%s: a vote changed the ETag %s → %s", target, before[target], tag)
		}
	}
	res, _ = e.Get("/api/v1/rankings/gpu-cloud", "If-None-Match", before["/api/v1/rankings/gpu-cloud"])
	if res.StatusCode != http.StatusNotModified {
		t.Errorf("after a vote: %d, want 304", res.StatusCode)
	}

	e.Publish("demo-qingjiao-2")
	after := tags()
	for target, tag := range after {
		if tag == before[target] {
			t.Errorf("%s: publishing edition 2 left the ETag %s", target, tag)
		}
	}
	res, body := e.Get("/r/gpu-cloud", "Accept-Language", "en", "If-None-Match", before["/r/gpu-cloud"])
	if res.StatusCode != http.StatusOK || len(body) == 0 {
		t.Errorf("old tag after a publish: %d", res.StatusCode)
	}
}
