package site

import (
	"bytes"
	"crypto/ed25519"
	"net/http"
	"strings"
	"testing"
)

// TestVerifyPage: the edition page links its verify page in both
// languages, and the page loads verify.js with the bundle's and the key's
// addresses; an edition that is not one answers 404, and a site that signs
// no bundles offers no verify page and no link.
func TestVerifyPage(t *testing.T) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	e := newEnvSigning(t, 0, key)
	for lang, words := range map[string][2]string{"en": {"Verify this edition", "What it does not prove"}, "zh": {"校验本期", "它不证明什么"}} {
		_, page := e.get("/r/gpu-cloud/editions/1", "Accept-Language", lang)
		if !strings.Contains(page, `href="/r/gpu-cloud/editions/1/verify"`) || !strings.Contains(page, words[0]) {
			t.Errorf("%s edition page: no link to the verify page worded %q", lang, words[0])
		}
		res, page := e.get("/r/gpu-cloud/editions/1/verify", "Accept-Language", lang)
		if res.StatusCode != http.StatusOK || !strings.Contains(page, words[1]) || !strings.Contains(page, "/static/verify.js?v=") ||
			!strings.Contains(page, `data-bundle="/r/gpu-cloud/editions/1/bundle"`) || !strings.Contains(page, `data-key="/.well-known/crossrank-signing-key"`) {
			t.Errorf("%s verify page: %d %.300s", lang, res.StatusCode, page)
		}
	}
	for _, target := range []string{"/r/gpu-cloud/editions/9/verify", "/r/nope/editions/1/verify", "/r/gpu-cloud/editions/01/verify"} {
		if res, _ := e.get(target); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", target, res.StatusCode)
		}
	}

	plain := newEnv(t, 0)
	if res, _ := plain.get("/r/gpu-cloud/editions/1/verify"); res.StatusCode != http.StatusNotFound {
		t.Errorf("a site without a key: verify page %d, want 404", res.StatusCode)
	}
	if _, page := plain.get("/r/gpu-cloud/editions/1"); strings.Contains(page, "/verify") {
		t.Error("a site without a key links a verify page")
	}
}
