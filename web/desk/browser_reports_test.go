package desk_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
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

// TestBrowserReportBecomesCorrection walks a reader's report in Chromium,
// from the public entry page to the corrections log: a signed-out reader
// reports a wrong score with the entry page's form (no JavaScript needed,
// no account); the editor finds it through the desk's navigation and
// accepts it, which opens a draft proposal on that entry and criterion;
// the proposal passes review and is published like any other; the public
// corrections log, in both languages, shows the report with the edition
// that published it. axe checks each new page.
func TestBrowserReportBecomesCorrection(t *testing.T) {
	browsertest.SkipShort(t)
	e := newDemoEnv(t)
	ts := httptest.NewServer(e.Srv.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(e.Srv.CloseStreams)
	const text = "PPIO now lists H200 cards on its pricing page."

	reader := browsertest.NewBrowser(t, 1280, 1024)
	entry := ts.URL + "/r/" + webtest.DemoRanking + "/e/ppio"
	browsertest.Browse(t, reader,
		chromedp.Navigate(entry+"?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="report-form"] textarea`)),
	)
	browsertest.CheckAccessibility(t, reader, "an entry page with its report form")
	browsertest.Browse(t, reader,
		chromedp.SetValue(chromedp.CSS(`#report-criterion`), demo.CritGPUs),
		chromedp.SendKeys(chromedp.CSS(`#report-text`), text),
		chromedp.Click(chromedp.CSS(`[data-testid="report-form"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="report-sent"]`)),
	)

	// The editor's navigation leads to the queue; accepting opens the
	// proposal.
	ed := e.signIn(ts.URL, "editor")
	clickAndLand(ed, `[data-testid="nav-reports"]`, `[data-testid="reports"]`)
	browsertest.CheckAccessibility(t, ed.ctx, "the readers' reports queue")
	report := browsertest.Value(t, ed.ctx, chromedp.Evaluate[string](
		`(document.querySelector('[data-testid="report"][data-status="open"]') || {dataset: {}}).dataset.report || ""`))
	if report == "" {
		t.Fatal("the queue lists no open report")
	}
	if got := ed.text(`report"][data-report="` + report); !strings.Contains(got, text) || !strings.Contains(got, "PPIO") || !strings.Contains(got, "GPU model coverage") {
		t.Errorf("the queue shows %q", got)
	}
	clickAndLand(ed, `[data-report="`+report+`"] form[action$="/accept"] button`, `[data-testid="proposal"][data-status="draft"]`)
	path := browsertest.Value(t, ed.ctx, chromedp.Evaluate[string](`location.pathname`))
	id := strings.TrimPrefix(path, "/desk/proposals/")
	p, err := e.Cmd.Proposal(e.Ctx, id)
	if err != nil || p.Entry != "ppio" || p.Author != "editor" {
		t.Fatalf("the accepted report's proposal %q: %+v, %v", id, p, err)
	}

	// The editor fills the draft in; two reviewers approve; it is published.
	actor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	if _, err := e.Cmd.AddEvidence(e.Ctx, actor, domain.AddEvidence{CommandID: id + "-ev", Proposal: id,
		Claim: events.Text{En: "H200 listed"}, Excerpt: "H200 on demand", SourceURL: "https://example.org/ppio",
		ObservedOn: time.Now().Format(time.DateOnly)}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Cmd.ProposeScore(e.Ctx, actor, domain.ProposeScore{CommandID: id + "-score", Proposal: id,
		Criterion: demo.CritGPUs, To: 5, Rationale: events.Text{En: "the reader was right"}, Evidence: []string{"e1"}}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	ed.open("/desk/proposals/"+id, `[data-testid="submit"]`)
	clickAndLand(ed, `[data-testid="submit"]`, `[data-testid="proposal"][data-status="in_review"]`)
	for _, r := range []string{"reviewer1", "reviewer2"} {
		e.MustPost(e.Client(r), id, "votes", url.Values{"verdict": {"approve"}, "revision": {"1"}, "verified_evidence": {"e1"}})
	}
	e.waitStatus(id, domain.StatusCrossValidated)
	edition := e.editionNumber() + 1
	pv, _, err := e.Cmd.PreviewEdition(e.Ctx, webtest.DemoRanking, []string{id})
	if err != nil {
		t.Fatal(err)
	}
	if res, body := e.Client("publisher").PostJSON("/api/v1/rankings/"+webtest.DemoRanking+"/editions",
		map[string]any{"proposals": []string{id}, "preview_hash": pv.Hash}, nil); res.StatusCode != http.StatusCreated {
		t.Fatalf("publish: %d %s", res.StatusCode, body)
	}
	e.waitStatus(id, domain.StatusPublished)

	// The corrections log, in both languages.
	for _, lang := range []string{"en", "zh"} {
		browsertest.Browse(t, reader,
			chromedp.Navigate(ts.URL+"/r/"+webtest.DemoRanking+"/corrections?lang="+lang),
			chromedp.WaitVisible(chromedp.CSS(`[data-report="`+report+`"] [data-testid="correction-edition"]`)),
		)
		browsertest.CheckAccessibility(t, reader, "the corrections log ("+lang+")")
		href := browsertest.Value(t, reader, chromedp.Evaluate[string](
			`document.querySelector('[data-report="`+report+`"] [data-testid="correction-edition"]').getAttribute("href")`))
		if want := "/r/" + webtest.DemoRanking + "/editions/" + strconv.Itoa(edition); href != want {
			t.Errorf("%s: the correction links %q, want %q", lang, href, want)
		}
		got := browsertest.Value(t, reader, chromedp.Text(chromedp.CSS(`[data-report="`+report+`"]`)))
		if !strings.Contains(got, text) || !strings.Contains(got, id) {
			t.Errorf("%s: the correction reads %q", lang, got)
		}
		if lang == "zh" && !strings.Contains(got, "第") {
			t.Errorf("zh: the correction is not in Chinese: %q", got)
		}
	}
}
