package site_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestVendorSeesOnlyItsOwnDraftCaptures: a capture cited only by another
// entry's draft is no page, frame, download or record for a vendor (404,
// as if there were none); the capture of the vendor's own draft is, and
// a reviewer reads both.
func TestVendorSeesOnlyItsOwnDraftCaptures(t *testing.T) {
	t.Parallel()
	copies := newShelf(false)
	e := webtest.NewDemo(t, func(c *web.Config) { c.Captures = copies })
	if _, err := e.Cmd.RegisterUser(e.Ctx, domain.System(), domain.RegisterUser{Username: "acme", DisplayName: "Acme (vendor)",
		PasswordHash: webtest.PasswordHash(), Roles: []string{domain.RoleVendor}, Entries: []string{demo.RankingSlug + "/ppio"}}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	acme := e.Client("acme")
	own := e.Reviewable(acme, "ppio", demo.CritGPUs, 4)
	capture := func(proposal, evidence, body string) string {
		key := copies.put(body)
		if _, err := e.Cmd.RecordCapture(e.Ctx, domain.Worker(), domain.RecordCapture{CommandID: proposal + "-" + evidence + "-capture",
			Proposal: proposal, Evidence: evidence, At: time.Now(), FinalURL: "https://example.com/report", Status: 200,
			ContentType: "text/html; charset=utf-8", Size: int64(len(body)), SHA256: key, QuoteFound: true, QuoteChecked: true}); err != nil {
			t.Fatal(err)
		}
		return key
	}
	ownKey := capture(own, "e1", "<p>acme's own source</p>")
	draft, err := e.Cmd.Proposal(e.Ctx, webtest.DemoDraft)
	if err != nil {
		t.Fatal(err)
	}
	editor := e.Client("editor")
	e.MustPost(editor, webtest.DemoDraft, "evidence", map[string][]string{"claim": {"Draft"}, "source_url": {"https://example.com/report"},
		"excerpt": {"It is measured."}, "observed_on": {time.Now().Format(time.DateOnly)}})
	draftKey := capture(webtest.DemoDraft, "e"+strconv.Itoa(draft.EvidenceSeq+1), "<p>another entry's draft source</p>")
	e.CaughtUp()

	paths := func(key string) []string {
		return []string{"/captures/" + key, "/captures/" + key + "/raw", "/captures/" + key + "/download", "/captures/" + key + ".warc"}
	}
	reviewer := e.Client("reviewer1")
	for _, p := range paths(draftKey) {
		if res, _ := acme.Do(http.MethodGet, p, nil, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("vendor GET %s (another entry's draft): %d, want 404", p, res.StatusCode)
		}
		if res, _ := reviewer.Do(http.MethodGet, p, nil, nil); res.StatusCode != http.StatusOK {
			t.Errorf("reviewer GET %s: %d, want 200", p, res.StatusCode)
		}
	}
	for _, p := range paths(ownKey) {
		if res, _ := acme.Do(http.MethodGet, p, nil, nil); res.StatusCode != http.StatusOK {
			t.Errorf("vendor GET %s (its own draft): %d, want 200", p, res.StatusCode)
		}
	}
}
