package site_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/web/paths"
)

// TestEntryPublicRecord: a reader who is not signed in follows an
// evidence item's "Audit record" link to the entry's public record on the
// entry page, not to the desk's sign-in: the row of that proposal names
// the edition that published it, the proposal's author, the reviewers
// whose approvals cross-validated it and the edition's publisher.
func TestEntryPublicRecord(t *testing.T) {
	e := newSiteEnv(t)
	e.Publish("demo-qingjiao-2")
	doc := e.Page("/r/gpu-cloud/e/qingjiao", "Accept-Language", "en")
	var links []string
	doc.Find(`[data-testid="evidence"] a`).Each(func(_ int, a *goquery.Selection) {
		if href := a.AttrOr("href", ""); strings.Contains(href, "record-") || strings.HasPrefix(href, paths.Audit) {
			links = append(links, href)
		}
	})
	if len(links) == 0 {
		t.Fatal("no evidence item links to a record")
	}
	for _, href := range links {
		if !strings.HasPrefix(href, "/r/gpu-cloud/e/qingjiao#record-") {
			t.Fatalf("an audit link leads to %q, not the public record", href)
		}
		if doc.Find(`[data-testid="record-row"]#`+strings.TrimPrefix(href, "/r/gpu-cloud/e/qingjiao#")).Length() != 1 {
			t.Errorf("%s: no row of the record holds that anchor", href)
		}
	}
	row := doc.Find(`#record-demo-qingjiao-2`)
	if row.Length() != 1 {
		t.Fatal("the record has no row for demo-qingjiao-2")
	}
	approvers := row.Find(`[data-testid="record-approvers"]`).Text()
	if !strings.Contains(row.Text(), "Ed. 2") || row.Find(`[data-testid="record-author"]`).Text() == "" ||
		len(strings.Split(approvers, ",")) < 2 || row.Find(`[data-testid="record-publisher"]`).Text() == "—" {
		t.Errorf("the record's row: %q (approved by %q)", row.Text(), approvers)
	}
	// The page is public: no sign-in, no redirect.
	res, _ := e.Get("/r/gpu-cloud/e/qingjiao")
	if res.StatusCode != http.StatusOK {
		t.Errorf("the entry page answers %d without a session", res.StatusCode)
	}
}
