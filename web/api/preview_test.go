package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/webtest"
	"github.com/crossrank/crossrank/web/webtest/openapicheck"
)

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
	pe.siteEnv = newSiteEnvWith(t, func(c *web.Config) { c.Now = func() time.Time { return *pe.now.Load() } })
	return pe
}

// bearer issues an API token to user and returns its Authorization header.
func (e *previewEnv) bearer(user string) string {
	e.T.Helper()
	now := time.Now()
	id, _, full, hash := auth.NewToken(now)
	if _, err := e.Cmd.IssueToken(e.Ctx, domain.System(), domain.IssueToken{CommandID: events.NewID(now),
		User: user, TokenID: id, Name: "test", Hash: hash, ExpiresAt: now.Add(30 * 24 * time.Hour)}); err != nil {
		e.T.Fatal(err)
	}
	e.CaughtUp()
	return "Bearer " + full
}

// call sends a JSON request as the site's own origin does and checks the
// answer against the OpenAPI document.
func (e *previewEnv) call(method, target, authz string, body any) (*http.Response, string) {
	e.T.Helper()
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
	e.Srv.Handler().ServeHTTP(w, r)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	openapicheck.Check(e.T, method, target, r.Header, raw, res, b)
	return res, string(b)
}

const previewsAPI = "/api/v1/rankings/" + demo.RankingSlug + "/previews"

// create creates a preview of proposals and returns its id and link path.
func (e *previewEnv) create(authz string, proposals []string, vendors ...string) (id, path string) {
	e.T.Helper()
	in := map[string]any{"proposals": proposals,
		"expires_at": e.now.Load().Add(72 * time.Hour).UTC().Format(time.RFC3339), "note": "禁发至周一 — embargoed until Monday"}
	if len(vendors) > 0 {
		in["vendors"] = vendors
	}
	res, body := e.call(http.MethodPost, previewsAPI, authz, in)
	var out api.CreatedPreview
	if err := json.Unmarshal([]byte(body), &out); err != nil || res.StatusCode != http.StatusCreated || out.URL == "" {
		e.T.Fatalf("create: %d %s", res.StatusCode, body)
	}
	_, path, _ = strings.Cut(out.URL, "://")
	path = path[strings.Index(path, "/"):]
	return out.ID, path
}

// list returns the ranking's previews as the API lists them.
func (e *previewEnv) list(authz string) api.Previews {
	e.T.Helper()
	res, body := e.call(http.MethodGet, previewsAPI, authz, nil)
	var out api.Previews
	if err := json.Unmarshal([]byte(body), &out); err != nil || res.StatusCode != http.StatusOK {
		e.T.Fatalf("list: %d %s", res.StatusCode, body)
	}
	return out
}

// secretEvidence is what only the preview may show before publication.
var secretEvidence = domain.AddEvidence{Claim: events.Text{En: "PPIO quietly lists H200 cards"}, SourceURL: "https://example.org/ppio-h200",
	Excerpt: "H200 under embargo", ObservedOn: "2026-01-05"}

// TestPreviewLifecycle walks an embargoed preview through the API and its
// page: a publisher creates it (the link shown once, only its hash kept),
// a signed-out reader opens it — the changed entry with its evidence and
// the banner in both languages, headers that keep it private — openings
// fold, the list shows status and count, and after revocation or expiry
// the link answers 404 as an unknown one does.
func TestPreviewLifecycle(t *testing.T) {
	t.Parallel()
	e := newPreviewEnv(t)
	pub, reviewer := e.bearer("publisher"), e.bearer("reviewer1")
	chosen := e.CrossValidate("ppio", demo.CritGPUs, 4, secretEvidence)

	if res, _ := e.call(http.MethodPost, previewsAPI, reviewer, map[string]any{"proposals": []string{chosen},
		"expires_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}); res.StatusCode != http.StatusForbidden {
		t.Errorf("a reviewer created a preview: %d", res.StatusCode)
	}
	for name, body := range map[string]map[string]any{
		"proposals":  {"proposals": []string{"demo-huawei-cloud-2"}, "expires_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)},
		"expires_at": {"proposals": []string{chosen}, "expires_at": time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)},
		"vendors":    {"proposals": []string{chosen}, "expires_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339), "vendors": []string{"nobody"}},
	} {
		res, raw := e.call(http.MethodPost, previewsAPI, pub, body)
		if p := webtest.DecodeProblem(t, res, raw); res.StatusCode != http.StatusUnprocessableEntity || len(p.Errors) == 0 || p.Errors[0].Field != name {
			t.Errorf("%s: %d %s", name, res.StatusCode, raw)
		}
	}
	if n := e.list(pub).Total; n != 0 {
		t.Fatalf("refused previews were stored: %d", n)
	}

	id, path := e.create(pub, []string{chosen}, "reviewer1")
	token := strings.TrimPrefix(path, "/preview/")
	if raw, err := base64URL(token); err != nil || len(raw) != 32 {
		t.Fatalf("token %q is not 256 bits", token)
	}
	pv, err := e.Cmd.Preview(e.Ctx, id)
	if err != nil || pv.Created.TokenHash != command.PreviewTokenHash(token) || pv.Created.Entries[0] != "ppio" {
		t.Fatalf("stored preview %+v, %v", pv, err)
	}

	for _, lang := range []string{"en", "zh-CN"} {
		res, body := e.Get(path, "Accept-Language", lang)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %.300s", lang, res.StatusCode, body)
		}
		for h, want := range map[string]string{"X-Robots-Tag": "noindex, nofollow", "Referrer-Policy": "no-referrer", "Cache-Control": "private, no-store"} {
			if got := res.Header.Get(h); got != want {
				t.Errorf("%s: %s = %q, want %q", lang, h, got, want)
			}
		}
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
		banner := doc.Find(`[data-testid="preview-banner"]`).Text()
		want := map[string]string{"en": "Embargoed preview — not published — until", "zh-CN": "禁发预览 — 尚未发布 — 禁发至"}[lang]
		if !strings.Contains(banner, want) {
			t.Errorf("%s: banner %q", lang, banner)
		}
		if got := doc.Find(`[data-testid="preview"]`).AttrOr("data-edition", ""); got != "2" {
			t.Errorf("%s: would be edition %q, want 2", lang, got)
		}
		if !strings.Contains(doc.Find(`[data-testid="preview-evidence"]`).Text(), secretEvidence.Claim.En) ||
			strings.TrimSpace(doc.Find(`[data-testid="change-to"]`).First().Text()) != "4" {
			t.Errorf("%s: the change and its evidence are not shown", lang)
		}
		if doc.Find(`[data-testid="ranking-row"]`).Length() == 0 || doc.Find("form[method=post]").Length() != 0 {
			t.Errorf("%s: no ranking, or a form on a read-only page", lang)
		}
	}
	for range 20 { // a reload storm
		e.Get(path)
	}
	e.CaughtUp()
	list := e.list(pub)
	if list.Total != 1 || list.Previews[0].Status != domain.PreviewActive || list.Previews[0].Openings != 1 ||
		list.Previews[0].Vendors[0] != "reviewer1" {
		t.Fatalf("list %+v", list)
	}
	if _, body := e.call(http.MethodGet, previewsAPI, pub, nil); strings.Contains(body, token) || strings.Contains(body, pv.Created.TokenHash) {
		t.Error("the list shows the token or its hash")
	}
	if res, _ := e.call(http.MethodGet, previewsAPI, reviewer, nil); res.StatusCode != http.StatusForbidden {
		t.Errorf("a reviewer listed previews: %d", res.StatusCode)
	}

	unknown, unknownBody := e.Get("/preview/" + strings.Repeat("A", 43))
	if res, _ := e.call(http.MethodDelete, "/api/v1/previews/"+id, reviewer, nil); res.StatusCode != http.StatusForbidden {
		t.Errorf("a reviewer revoked: %d", res.StatusCode)
	}
	if res, body := e.call(http.MethodDelete, "/api/v1/previews/"+id, pub, nil); res.StatusCode != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", res.StatusCode, body)
	}
	if res, _ := e.call(http.MethodDelete, "/api/v1/previews/"+id, pub, nil); res.StatusCode != http.StatusConflict {
		t.Errorf("revoked twice: %d", res.StatusCode)
	}
	revoked, revokedBody := e.Get(path)
	if unknown.StatusCode != http.StatusNotFound || revoked.StatusCode != http.StatusNotFound ||
		mainText(unknownBody) != mainText(revokedBody) || revoked.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("unknown %d, revoked %d: the answers differ:\n%s\n%s", unknown.StatusCode, revoked.StatusCode, mainText(unknownBody), mainText(revokedBody))
	}
	if got := e.list(pub).Previews[0].Status; got != domain.PreviewRevoked {
		t.Errorf("status %q after revoking", got)
	}

	// Expiry: the same link answers 404 once the clock passes it.
	_, path = e.create(pub, []string{chosen})
	if res, _ := e.Get(path); res.StatusCode != http.StatusOK {
		t.Fatalf("second preview: %d", res.StatusCode)
	}
	later := e.now.Load().Add(73 * time.Hour)
	e.now.Store(&later)
	if res, body := e.Get(path); res.StatusCode != http.StatusNotFound || mainText(body) != mainText(unknownBody) {
		t.Errorf("expired: %d", res.StatusCode)
	}
	if got := e.list(pub).Previews[0].Status; got != domain.PreviewExpired {
		t.Errorf("status %q after expiry", got)
	}
}

var requestID = regexp.MustCompile(`[0-9a-f]{16}`)

// mainText is the text of a page's main element: what a refusal says,
// without the nonce and request id that differ per answer.
func mainText(body string) string {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		return ""
	}
	return requestID.ReplaceAllString(strings.Join(strings.Fields(doc.Find("main").Text()), " "), "")
}
