package site_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestContactTimelineKeepsDraftsPrivate: signed out, an entry's contact
// timeline (its JSON and its page) shows the vendor's standing, not the
// evidence of a proposal still in review, nor the embargoed preview the
// editors sent the vendor.
func TestContactTimelineKeepsDraftsPrivate(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	if _, err := e.Cmd.RegisterUser(e.Ctx, domain.System(), domain.RegisterUser{Username: "acme", DisplayName: "Acme (vendor)",
		PasswordHash: webtest.PasswordHash(), Roles: []string{domain.RoleVendor},
		Entries: []string{demo.RankingSlug + "/ppio", demo.RankingSlug + "/qingjiao"}}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	e.Reviewable(e.Client("acme"), "ppio", demo.CritGPUs, 4) // submitted, not published
	pub := e.Client("publisher")
	res, body := pub.PostJSON("/api/v1/rankings/"+demo.RankingSlug+"/previews", map[string]any{"proposals": []string{webtest.DemoValidated},
		"expires_at": time.Now().Add(72 * time.Hour).UTC().Format(time.RFC3339), "vendors": []string{"acme"}}, nil)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("preview: %d %s", res.StatusCode, body)
	}
	e.CaughtUp()

	reader := e.Client("")
	for _, entry := range []string{"ppio", "qingjiao"} {
		base := "/r/" + demo.RankingSlug + "/e/" + entry + "/contact"
		res, body := reader.Do(http.MethodGet, base+".json", nil, nil)
		var c struct {
			Events []struct{ Kind, Subject string }
		}
		if err := json.Unmarshal([]byte(body), &c); err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", base, res.StatusCode, body)
		}
		var kinds []string
		for _, ev := range c.Events {
			kinds = append(kinds, ev.Kind)
		}
		if got := strings.Join(kinds, ","); got != "vendor_invited" {
			t.Errorf("%s.json lists %q, want only vendor_invited", base, got)
		}
		doc := e.Page(reader, base, http.StatusOK)
		rows := webtest.TestText(doc, "contact-row")
		if n := webtest.TestCount(doc, "contact-row"); n != 1 || strings.Contains(rows, "preview") || strings.Contains(rows, "submitted") {
			t.Errorf("%s: %d rows: %s", base, n, rows)
		}
	}
}
