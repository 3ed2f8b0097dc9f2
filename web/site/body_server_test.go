package site_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// TestPublicBodyCache: a cached page is the page rendered for the request
// (its nonce the one of the CSP header), gzipped or not; an edition makes
// a new one.
func TestPublicBodyCache(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	nonce := regexp.MustCompile(`nonce="([^"]+)"`)
	plain := func(target string) (string, string) {
		res, body := e.Get(target)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", target, res.StatusCode)
		}
		return body, res.Header.Get("Content-Security-Policy")
	}
	zipped := func(target string) (string, string) {
		res, body := e.Get(target, "Accept-Encoding", "gzip, br")
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("GET %s gzip: %d %v", target, res.StatusCode, res.Header)
		}
		zr, err := gzip.NewReader(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return string(b), res.Header.Get("Content-Security-Policy")
	}
	for _, target := range []string{"/", "/api/v1/rankings/gpu-cloud"} {
		var bodies []string
		for _, get := range []func(string) (string, string){plain, plain, zipped, zipped} {
			body, csp := get(target)
			for _, m := range nonce.FindAllStringSubmatch(body, -1) {
				if !strings.Contains(csp, "'nonce-"+m[1]+"'") {
					t.Errorf("%s: nonce %q in the body, CSP %q", target, m[1], csp)
				}
			}
			bodies = append(bodies, nonce.ReplaceAllString(body, `nonce=""`))
		}
		for i, b := range bodies[1:] {
			if b != bodies[0] {
				t.Errorf("%s: response %d differs from the first beyond the nonce", target, i+2)
			}
		}
	}
	before, _ := plain("/api/v1/rankings/gpu-cloud")
	e.Publish(e.CrossValidate("ppio", "gpu-coverage", 4, domain.AddEvidence{Claim: events.Text{En: "PPIO lists more GPUs"},
		SourceURL: "https://example.org/ppio", Excerpt: "RTX 4090 on demand", ObservedOn: "2026-01-05"}))
	if after, _ := plain("/api/v1/rankings/gpu-cloud"); after == before {
		t.Error("the API answer did not change with a new edition")
	}
}
