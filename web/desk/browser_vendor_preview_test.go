package desk_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/webtest"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// TestBrowserVendorAndPreview walks the rest of issue 29 in Chromium: a
// vendor account scoped to one entry signs in, writes a statement that the
// public entry page shows as the vendor's own words, and opens a proposal
// whose evidence lands as tier vendor; a publisher creates an embargoed
// preview from the publish page, a signed-out browser opens its link (the
// banner, noindex), and after the publisher revokes it the link is 404.
// axe checks each new page.
func TestBrowserVendorAndPreview(t *testing.T) {
	browsertest.SkipShort(t)
	e := newDemoEnv(t)
	ts := httptest.NewServer(e.Srv.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(e.Srv.CloseStreams)
	own := webtest.DemoRanking + "/ppio"
	if _, err := e.Cmd.RegisterUser(e.Ctx, domain.System(), domain.RegisterUser{CommandID: "add-acme", Username: "acme",
		DisplayName: "PPIO (vendor)", PasswordHash: webtest.PasswordHash(), Roles: []string{domain.RoleVendor},
		Entries: []string{own}}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()

	// The vendor signs in and lands where it may act: its statements page.
	v := &userBrowser{t: t, ctx: browsertest.NewBrowser(t, 1280, 1024), base: ts.URL, user: "acme"}
	v.do(
		chromedp.Navigate(ts.URL+"/login?next=%2Fdesk%2Fentries%2F"+webtest.DemoRanking+"%2Fppio%2Freplies&lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`#username`)),
		chromedp.SendKeys(chromedp.CSS(`#username`), "acme"),
		chromedp.SendKeys(chromedp.CSS(`#password`), webtest.Password),
		chromedp.Click(chromedp.CSS(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="reply-form"]`)),
	)
	browsertest.CheckAccessibility(t, v.ctx, "the vendor's statements page")
	const words = "We added H200 nodes in Shanghai in November."
	v.do(chromedp.SendKeys(chromedp.CSS(`#reply-en`), words))
	// Sent, it goes to the public entry page, to the statements.
	clickAndLand(v, `[data-testid="reply-form"] button[type="submit"]`, `[data-testid="reply"] [data-testid="reply-en"]`)

	// The public entry page shows it as the vendor's words.
	reader := browsertest.NewBrowser(t, 1280, 1024)
	browsertest.Browse(t, reader,
		chromedp.Navigate(ts.URL+"/r/"+webtest.DemoRanking+"/e/ppio?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="reply"] [data-testid="reply-en"]`)),
	)
	if got := browsertest.Value(t, reader, chromedp.Text(chromedp.CSS(`[data-testid="reply"]`))); !strings.Contains(got, words) ||
		!strings.Contains(got, "PPIO (vendor)") {
		t.Errorf("the entry page's statement reads %q", got)
	}
	browsertest.CheckAccessibility(t, reader, "an entry page with a vendor's statement")
	// Another entry's statements are not the vendor's to write.
	if res, _ := e.Client("acme").Do(http.MethodGet, "/desk/entries/"+webtest.DemoRanking+"/qingjiao/replies", nil, nil); res.StatusCode != http.StatusForbidden {
		t.Errorf("the vendor opened another entry's statements: %d", res.StatusCode)
	}

	// The vendor opens a proposal on its entry; its evidence is tier vendor.
	v.open("/desk/entries/"+webtest.DemoRanking+"/ppio/replies", `[data-testid="reply-propose"]`)
	v.do(chromedp.SendKeys(chromedp.CSS(`#propose-title`), "H200 in Shanghai"))
	clickAndLand(v, `[data-testid="reply-propose"] button[type="submit"]`, `[data-testid="proposal"][data-status="draft"]`)
	id := strings.TrimPrefix(browsertest.Value(t, v.ctx, chromedp.Evaluate[string](`location.pathname`)), "/desk/proposals/")
	acme := domain.Actor{Name: "acme", Roles: []string{domain.RoleVendor}, Entries: []string{own}}
	if _, err := e.Cmd.AddEvidence(e.Ctx, acme, domain.AddEvidence{CommandID: id + "-ev", Proposal: id, Claim: events.Text{En: "H200 listed"},
		Excerpt: "H200 in Shanghai", SourceURL: "https://example.org/ppio", ObservedOn: time.Now().Format(time.DateOnly)}); err != nil {
		t.Fatal(err)
	}
	p, err := e.Cmd.Proposal(e.Ctx, id)
	if err != nil || p.Entry != "ppio" || p.Author != "acme" || len(p.Evidence) != 1 || p.Evidence[0].Tier != string(domain.TierVendor) {
		t.Fatalf("the vendor's proposal: %+v, %v", p, err)
	}

	// The publisher previews a cross-validated proposal for outsiders.
	cv := e.Reviewable(e.Client("editor"), "qingjiao", demo.CritOnboarding, 4)
	for _, r := range []string{"reviewer1", "reviewer2"} {
		e.MustPost(e.Client(r), cv, "votes", url.Values{"verdict": {"approve"}, "revision": {"1"}, "verified_evidence": {"e1"}})
	}
	e.waitStatus(cv, domain.StatusCrossValidated)
	pub := e.signIn(ts.URL, "publisher")
	pub.open("/desk/publish?ranking="+webtest.DemoRanking+"&p="+cv, `[data-testid="preview-form-`+webtest.DemoRanking+`"]`)
	at := time.Now().Add(48 * time.Hour).UTC()
	pub.do(
		chromedp.SetValue(chromedp.CSS(`[data-testid="preview-zone"]`), "UTC"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="preview-expires"]`), at.Format("2006-01-02T15:04:05")),
	)
	clickAndLand(pub, `[data-testid="preview-form-`+webtest.DemoRanking+`"] [data-testid="preview-submit"]`, `[data-testid="preview-link"]`)
	browsertest.CheckAccessibility(t, pub.ctx, "the preview link, shown once")
	link := strings.TrimSpace(browsertest.Value(t, pub.ctx, chromedp.Evaluate[string](
		`(function (e) { return e.value || e.getAttribute("href") || e.textContent; })(document.querySelector('[data-testid="preview-link"]'))`)))
	if !strings.Contains(link, "/preview/") {
		t.Fatalf("the preview link %q", link)
	}
	path := link[strings.Index(link, "/preview/"):]
	browsertest.Browse(t, reader,
		chromedp.Navigate(ts.URL+path+"?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="preview-banner"]`)),
	)
	browsertest.CheckAccessibility(t, reader, "an embargoed preview")
	res, _ := e.Client("").Do(http.MethodGet, path, nil, nil)
	if res.StatusCode != http.StatusOK || !strings.Contains(res.Header.Get("X-Robots-Tag"), "noindex") {
		t.Errorf("the preview answers %d, X-Robots-Tag %q", res.StatusCode, res.Header.Get("X-Robots-Tag"))
	}

	// Revoked from the publish page: the link is gone.
	pub.open("/desk/publish?ranking="+webtest.DemoRanking, `[data-testid="previews-list"]`)
	pub.do(chromedp.Click(chromedp.CSS(`[data-testid^="preview-revoke-"] button`)))
	pub.do(chromedp.WaitNotPresent(chromedp.CSS(`[data-testid^="preview-revoke-"]`)))
	pub.do(chromedp.WaitVisible(chromedp.CSS(`[data-testid="previews-list"]`)))
	if res, _ := e.Client("").Do(http.MethodGet, path, nil, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("the revoked preview answers %d", res.StatusCode)
	}
}
