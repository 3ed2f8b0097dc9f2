package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/site"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestPreviewSentToVendor: a preview named to the vendor of a changed
// entry goes into the vendor's inbox; the entry's public contact timeline
// stays silent about it, sent or opened (an embargoed preview is not
// public: issue 41 item 3), as it does for a preview named to no vendor.
func TestPreviewSentToVendor(t *testing.T) {
	t.Parallel()
	e := newPreviewEnv(t)
	if _, err := e.Cmd.RegisterUser(e.Ctx, domain.System(), domain.RegisterUser{CommandID: "add-acme", Username: "acme",
		DisplayName: "PPIO (vendor)", PasswordHash: webtest.PasswordHash(), Roles: []string{domain.RoleVendor},
		Entries: []string{demo.RankingSlug + "/ppio"}}); err != nil {
		t.Fatal(err)
	}
	pub := e.bearer("publisher")
	chosen := e.CrossValidate("ppio", demo.CritGPUs, 4, secretEvidence)
	e.create(pub, []string{chosen}) // to no vendor
	e.CaughtUp()
	if kinds := contactKinds(t, e, "ppio"); kinds["preview_sent"] != 0 {
		t.Errorf("a preview sent to no vendor is on the timeline: %v", kinds)
	}

	_, path := e.create(pub, []string{chosen}, "acme")
	e.CaughtUp()
	if kinds := contactKinds(t, e, "ppio"); kinds["preview_sent"] != 0 || kinds["preview_opened"] != 0 {
		t.Errorf("after sending, the public timeline: %v", kinds)
	}
	if res, _ := e.Get(path); res.StatusCode != http.StatusOK {
		t.Fatalf("the preview: %d", res.StatusCode)
	}
	e.CaughtUp()
	if kinds := contactKinds(t, e, "ppio"); kinds["preview_sent"] != 0 || kinds["preview_opened"] != 0 {
		t.Errorf("after opening, the public timeline: %v", kinds)
	}
	if kinds := contactKinds(t, e, "qingjiao"); len(kinds) != 0 {
		t.Errorf("another entry's timeline: %v", kinds)
	}
	in, err := e.Read.Inbox(e.Ctx, projections.InboxFilter{User: "acme", Kind: "vendor_preview"})
	if err != nil || len(in.Rows) != 1 || in.Rows[0].Actor != "publisher" || in.Rows[0].Ranking != demo.RankingSlug {
		t.Errorf("the vendor's inbox: %+v, %v", in.Rows, err)
	}
}

// contactKinds counts an entry's public contact timeline by kind.
func contactKinds(t *testing.T, e *previewEnv, entry string) map[string]int {
	t.Helper()
	res, body := e.Get("/r/" + demo.RankingSlug + "/e/" + entry + "/contact.json")
	var c site.Contact
	if err := json.Unmarshal([]byte(body), &c); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("contact of %s: %d %s", entry, res.StatusCode, body)
	}
	out := map[string]int{}
	for _, ev := range c.Events {
		out[ev.Kind]++
	}
	return out
}
