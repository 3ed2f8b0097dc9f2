package web

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/auth"
)

// previewEnv and its steps, for TestPreviewSentToVendor (preview_vendor_test.go).

// previewEnv is the demo site with a clock the test moves (the server's:
// what the page and the list take for now).
type previewEnv struct {
	*siteEnv
	now atomic.Pointer[time.Time]
}

func newPreviewEnv(t *testing.T) *previewEnv {
	t.Helper()
	pe := &previewEnv{}
	start := time.Now()
	pe.now.Store(&start)
	pe.siteEnv = newSiteEnvWith(t, func(c *Config) { c.Now = func() time.Time { return *pe.now.Load() } })
	return pe
}

// bearer issues an API token to user and returns its Authorization header.
func (e *previewEnv) bearer(user string) string {
	e.t.Helper()
	now := time.Now()
	id, _, full, hash := auth.NewToken(now)
	if _, err := e.cmd.IssueToken(e.ctx, domain.System(), domain.IssueToken{CommandID: events.NewID(now),
		User: user, TokenID: id, Name: "test", Hash: hash, ExpiresAt: now.Add(30 * 24 * time.Hour)}); err != nil {
		e.t.Fatal(err)
	}
	e.caughtUp()
	return "Bearer " + full
}

// call sends a JSON request as the site's own origin does and checks the
// answer against the OpenAPI document.
func (e *previewEnv) call(method, target, authz string, body any) (*http.Response, string) {
	e.t.Helper()
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	r := httptest.NewRequest(method, target, bytes.NewReader(raw))
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	if authz != "" {
		r.Header.Set("Authorization", authz)
	}
	w := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(w, r)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	checkOpenAPI(e.t, method, target, r.Header, raw, res, b)
	return res, string(b)
}

const previewsAPI = "/api/v1/rankings/" + demo.RankingSlug + "/previews"

// create creates a preview of proposals and returns its id and link path.
func (e *previewEnv) create(authz string, proposals []string, vendors ...string) (id, path string) {
	e.t.Helper()
	in := map[string]any{"proposals": proposals,
		"expires_at": e.now.Load().Add(72 * time.Hour).UTC().Format(time.RFC3339), "note": "禁发至周一 — embargoed until Monday"}
	if len(vendors) > 0 {
		in["vendors"] = vendors
	}
	res, body := e.call(http.MethodPost, previewsAPI, authz, in)
	var out api.CreatedPreview
	if err := json.Unmarshal([]byte(body), &out); err != nil || res.StatusCode != http.StatusCreated || out.URL == "" {
		e.t.Fatalf("create: %d %s", res.StatusCode, body)
	}
	_, path, _ = strings.Cut(out.URL, "://")
	path = path[strings.Index(path, "/"):]
	return out.ID, path
}

// secretEvidence is what only the preview may show before publication.
var secretEvidence = domain.AddEvidence{Claim: "PPIO quietly lists H200 cards", SourceURL: "https://example.org/ppio-h200",
	Excerpt: "H200 under embargo", ObservedOn: "2026-01-05"}
