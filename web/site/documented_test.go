package site_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest"
	"github.com/crossrank/crossrank/web/webtest/openapicheck"
)

// TestDocumentedOutsideAPI holds the operations the OpenAPI document
// lists outside /api/v1 to it, with real answers: an entry's changes.json,
// contact.json and badge.json and an edition's ranking.json and cite.json
// answer what their schemas say (closed, as the check makes every
// response object), and unknown ones, like an unknown bundle, WACZ and
// capture record, answer problem+json, not an error page.
func TestDocumentedOutsideAPI(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	// A second edition, so that ppio has changes; a vendor, so that its
	// contact timeline has an event.
	e.Publish(e.CrossValidate("ppio", demo.CritGPUs, 4, domain.AddEvidence{Claim: events.Text{En: "c"}, SourceURL: "https://ppio.example/",
		Excerpt: "x", ObservedOn: "2026-11-01"}))
	if _, err := e.Cmd.RegisterUser(e.Ctx, domain.System(), domain.RegisterUser{Username: "acme", DisplayName: "Acme (vendor)",
		PasswordHash: webtest.PasswordHash(), Roles: []string{domain.RoleVendor}, Entries: []string{demo.RankingSlug + "/ppio"}}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	get := func(target string, header ...string) (*http.Response, string) {
		t.Helper()
		res, body := e.Get(target, header...)
		h := http.Header{}
		for i := 0; i+1 < len(header); i += 2 {
			h.Set(header[i], header[i+1])
		}
		openapicheck.CheckDocumented(t, http.MethodGet, target, h, nil, res, []byte(body))
		return res, body
	}

	r := "/r/" + demo.RankingSlug
	for _, target := range []string{
		r + "/e/ppio/changes.json?from=1&to=2",
		r + "/e/ppio/contact.json",
		r + "/e/ppio/badge.json",
		r + "/editions/1/ranking.json",
		r + "/editions/2/ranking.json",
		r + "/editions/1/cite.json",
	} {
		if res, body := get(target); res.StatusCode != http.StatusOK || !json.Valid([]byte(body)) ||
			strings.HasSuffix(target, "contact.json") && !strings.Contains(body, "vendor_invited") {
			t.Errorf("%s: %d %.200s", target, res.StatusCode, body)
		}
	}

	for _, target := range []string{
		r + "/e/nope/changes.json", r + "/e/ppio/changes.json?from=x",
		r + "/e/nope/contact.json",
		r + "/e/nope/badge.json",
		r + "/editions/9/ranking.json", "/r/nope/editions/1/ranking.json", r + "/editions/01/ranking.json",
		r + "/editions/9/cite.json",
		r + "/editions/9/bundle", "/r/nope/editions/1/bundle", r + "/editions/02/bundle",
		r + "/editions/9/evidence.wacz", "/r/nope/editions/1/evidence.wacz",
		"/captures/" + strings.Repeat("0", 64) + ".warc",
	} {
		// A browser asks too: these are downloads, whoever follows the link.
		res, body := get(target, "Accept", "text/html,*/*")
		if ct := res.Header.Get("Content-Type"); res.StatusCode/100 != 4 || !strings.HasPrefix(ct, "application/problem+json") {
			t.Errorf("%s: %d %s, want a problem: %.200s", target, res.StatusCode, ct, body)
		}
	}
}

// TestCorrectionsNoUnsentNotModified: the corrections API answers no-store
// without a validator, so its operation lists no 304 it could never send.
func TestCorrectionsNoUnsentNotModified(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	res, body := e.Get("/api/v1/rankings/" + demo.RankingSlug + "/corrections")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("corrections: %d %.200s", res.StatusCode, body)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]any `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(api.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	_, documents := doc.Paths["/api/v1/rankings/{slug}/corrections"]["get"].Responses["304"]
	validator := res.Header.Get("ETag") != "" || res.Header.Get("Last-Modified") != ""
	if documents != validator {
		t.Errorf("the document lists 304: %v; the answer carries a validator: %v (Cache-Control %q)",
			documents, validator, res.Header.Get("Cache-Control"))
	}
}
