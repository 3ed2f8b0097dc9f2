package desk_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
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

// userBrowser drives one signed-in user's Chromium against the desk.
type userBrowser struct {
	t    *testing.T
	ctx  context.Context
	base string
	user string
}

// signIn starts a fresh Chromium (its own profile) and signs user in
// through the sign-in form, landing on the dashboard.
func (e *demoEnv) signIn(base, user string) *userBrowser {
	e.T.Helper()
	return e.signInAt(base, user, 1280, 1024)
}

// signInAt is signIn in a window of width×height.
func (e *demoEnv) signInAt(base, user string, width, height int) *userBrowser {
	e.T.Helper()
	b := &userBrowser{t: e.T, ctx: browsertest.NewBrowser(e.T, width, height), base: base, user: user}
	b.do(
		chromedp.Navigate(base+"/login?next=%2Fdesk&lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`#username`)),
	)
	browsertest.CheckAccessibilityOnce(e.T, b.ctx, "the sign-in page")
	b.do(
		chromedp.SendKeys(chromedp.CSS(`#username`), user),
		chromedp.SendKeys(chromedp.CSS(`#password`), webtest.Password),
		chromedp.Click(chromedp.CSS(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="dashboard"]`)),
	)
	browsertest.CheckAccessibilityOnce(e.T, b.ctx, "the dashboard as "+user)
	return b
}

func (b *userBrowser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	browsertest.Browse(b.t, b.ctx, steps...)
}

// text is the text of the element with a data-testid.
func (b *userBrowser) text(testid string) string {
	b.t.Helper()
	return strings.TrimSpace(browsertest.Value(b.t, b.ctx, chromedp.Text(chromedp.CSS(`[data-testid="`+testid+`"]`))))
}

// open shows a desk page and waits until an element matching ready is in it.
func (b *userBrowser) open(path, ready string) {
	b.t.Helper()
	b.do(chromedp.Navigate(b.base+path), chromedp.WaitReady(chromedp.CSS(ready)))
	browsertest.CheckAccessibility(b.t, b.ctx, path+" as "+b.user)
}

// TestBrowserDesk runs one proposal through the desk in Chromium, as the
// demo's four users: the editor opens it for an entry, adds evidence,
// proposes a score while the rank-impact preview follows the typing, and
// submits; reviewer1 rejects it with a reason; the editor revises and
// adjusts the score; reviewer1 and reviewer2 approve the new revision; the
// publisher publishes it on the publish page; the audit trail shows every
// step. Each step leaves a screenshot in testdata/screenshots/desk-NN-*.png.
func TestBrowserDesk(t *testing.T) {
	browsertest.SkipShort(t)
	e := newDemoEnv(t)
	ts := httptest.NewServer(e.Srv.Handler())
	defer ts.Close()
	defer e.Srv.CloseStreams() // the proposal page follows its pending captures and every desk page its inbox count: Close would wait for those streams
	n := 0
	shot := func(b *userBrowser, step string) {
		n++
		browsertest.Screenshot(t, b.ctx, fmt.Sprintf("desk-%02d-%s", n, step))
	}
	crit := demo.CritGraphics
	diffRow := `[data-testid="diff-score-` + crit + `"]`

	// The editor opens a proposal for PPIO.
	editor := e.signIn(ts.URL, "editor")
	shot(editor, "dashboard")
	editor.do(
		chromedp.Click(chromedp.CSS(`[data-testid="new-proposal"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="open-existing-form"]`)),
		chromedp.SetValue(chromedp.CSS(`#open-entry`), "ppio"),
		chromedp.SendKeys(chromedp.CSS(`#ex-title`), "PPIO: graphics rendering is documented"),
	)
	shot(editor, "new-proposal")
	editor.do(
		chromedp.Click(chromedp.CSS(`[data-testid="open-existing"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="evidence-form"]`)),
	)
	loc := browsertest.Value(t, editor.ctx, chromedp.Location())
	id := loc[strings.LastIndex(loc, "/")+1:]
	if !events.ValidID(id) || !strings.HasSuffix(loc, "/desk/proposals/"+id) {
		t.Fatalf("after opening, the browser is at %q", loc)
	}
	page := "/desk/proposals/" + id

	// Evidence with a source URL.
	editor.do(
		chromedp.SendKeys(chromedp.CSS(`#ev-claim-en`), "PPIO documents GPU rendering instances"),
		chromedp.SendKeys(chromedp.CSS(`#ev-source_url`), "https://example.com/ppio/rendering"),
		chromedp.SendKeys(chromedp.CSS(`#ev-section`), "§7"),
		chromedp.SendKeys(chromedp.CSS(`#ev-excerpt`), "PPIO offers GPU instances for graphics rendering."),
		chromedp.Click(chromedp.CSS(`[data-testid="evidence-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="evidence-e1"]`)),
	)
	shot(editor, "evidence")

	// A score: the preview follows what is typed, before anything is saved.
	saved := editor.text("impact-overall")
	editor.do(
		chromedp.SetValue(chromedp.CSS(`#score-criterion`), crit),
		chromedp.SendKeys(chromedp.CSS(`#score-to`), "9"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="impact-what"]`)),
	)
	if what := editor.text("impact-what"); what != "As if Graphics & remote desktop were 9:" {
		t.Errorf("live preview says %q", what)
	}
	preview := editor.text("impact-overall")
	t.Logf("rank impact: saved %q, typing 9: %q", saved, preview)
	shot(editor, "impact-preview")
	editor.do(
		chromedp.Click(chromedp.CSS(`[data-testid="score-cite-e1"]`)),
		chromedp.SendKeys(chromedp.CSS(`#score-rationale-en`), "Rendering instances are documented (§7)."),
		chromedp.Click(chromedp.CSS(`[data-testid="score-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(diffRow+`[data-after="9"]`)),
	)
	if got := editor.text("impact-overall"); got != preview {
		t.Errorf("saved impact %q differs from the preview %q", got, preview)
	}
	shot(editor, "score")
	editor.do(
		chromedp.Click(chromedp.CSS(`[data-testid="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="proposal"][data-status="in_review"]`)),
	)
	shot(editor, "submitted")

	// reviewer1 finds it in the queue and vetoes it with a reason.
	r1 := e.signIn(ts.URL, "reviewer1")
	r1.do(chromedp.WaitVisible(chromedp.CSS(`[data-testid="queue-awaiting-review"] a[href="` + page + `"]`)))
	r1.open(page, `[data-testid="reject-vote-form"]`)
	r1.do(
		chromedp.SendKeys(chromedp.CSS(`#reject-comment`), "The excerpt says rendering, not remote desktops; score 8 at most."),
		chromedp.Click(chromedp.CSS(`[data-testid="reject-vote"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="vote-veto"]`)),
	)
	if got := r1.text("quorum-vetoes"); got != "1 open veto by reviewer1" {
		t.Errorf("veto clause %q", got)
	}
	shot(r1, "rejected")

	// The editor revises and adjusts the score.
	editor.open(page, `[data-testid="revise-form"]`)
	editor.do(
		chromedp.SendKeys(chromedp.CSS(`#revise-note`), "Lowered to 8 after reviewer1's veto."),
		chromedp.Click(chromedp.CSS(`[data-testid="revise"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="proposal"][data-revision="2"] [data-testid="score-form"]`)),
		chromedp.SetValue(chromedp.CSS(`#score-criterion`), crit),
		chromedp.SendKeys(chromedp.CSS(`#score-to`), "8"),
		chromedp.Click(chromedp.CSS(`[data-testid="score-cite-e1"]`)),
		chromedp.SendKeys(chromedp.CSS(`#score-rationale-en`), "Rendering only (§7); remote desktops are not mentioned."),
		chromedp.Click(chromedp.CSS(`[data-testid="score-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(diffRow+`[data-after="8"]`)),
	)
	shot(editor, "revised")
	editor.do(
		chromedp.Click(chromedp.CSS(`[data-testid="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="proposal"][data-revision="2"][data-status="in_review"]`)),
	)
	shot(editor, "resubmitted")

	// Both reviewers approve revision 2, each verifying the evidence.
	r2 := e.signIn(ts.URL, "reviewer2")
	for _, b := range []*userBrowser{r1, r2} {
		b.open(page, `[data-testid="approve-form"] [data-testid="approve-revision"][value="2"]`)
		b.do(
			chromedp.Click(chromedp.CSS(`[data-testid="verify-e1"]`)),
			chromedp.SendKeys(chromedp.CSS(`#approve-comment`), "Checked against the source."),
			chromedp.Click(chromedp.CSS(`[data-testid="approve"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="vote-`+b.user+`"][data-verdict="approve"]`)),
		)
		shot(b, "approved-"+b.user)
	}
	r2.do(chromedp.WaitVisible(chromedp.CSS(`[data-testid="proposal"][data-status="cross_validated"]`)))
	if got := r2.text("quorum-summary"); got != "Quorum met: approved by reviewer1, reviewer2" {
		t.Errorf("quorum %q", got)
	}

	// The publisher publishes it on the publish page (another engineer's
	// page; were it missing, the test would publish through the JSON API).
	pub := e.signIn(ts.URL, "publisher")
	if e.hasPublishPage(ts.URL) {
		pub.open("/desk/publish?ranking="+webtest.DemoRanking+"&p="+id, `[data-testid="publish-form-`+webtest.DemoRanking+`"]`)
		shot(pub, "publish-preview")
		pub.do(chromedp.Click(chromedp.CSS(`[data-testid="publish-confirm"]`)), chromedp.Click(chromedp.CSS(`[data-testid="publish-submit"]`)))
		// Let the form's navigation finish (it lands on the new edition)
		// before opening another page: navigating away while the POST is
		// still answering aborts one of the two (net::ERR_ABORTED).
		landed := `location.pathname.startsWith("/r/` + webtest.DemoRanking + `/editions/") && document.readyState === "complete"`
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			// Evaluating during the navigation fails; ask again.
			if ok, err := chromedp.Run(pub.ctx, chromedp.Evaluate[bool](landed)); err == nil && ok {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the publish form did not land on the new edition within 30 s")
			}
		}
	} else {
		e.publishByAPI(pub, id)
	}
	e.waitStatus(id, domain.StatusPublished)
	pub.open(page, `[data-testid="proposal"][data-status="published"]`)
	shot(pub, "published")

	// The audit trail has every step.
	pub.open("/desk/audit?proposal="+id, `[data-testid="audit-table"]`)
	shot(pub, "audit")
	types := browsertest.Value(t, pub.ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll('[data-testid="audit-row"]')).map(r => r.dataset.type)`))
	want := map[string]int{
		events.TypeProposalOpened: 1, events.TypeEvidenceAdded: 1, events.TypeScoreChangeProposed: 2,
		events.TypeProposalSubmitted: 2, events.TypeVoteCast: 3, events.TypeProposalRevised: 1,
		events.TypeProposalPublished: 1,
	}
	// The vote that completed the quorum carries the cross-validation: no
	// event of its own, the vote's row says so.
	summaries := browsertest.Value(t, pub.ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll('[data-testid="audit-row-summary"]')).map(r => r.textContent)`))
	if !slices.ContainsFunc(summaries, func(s string) bool {
		return strings.Contains(s, "cross-validated revision") || strings.Contains(s, "完成交叉验证")
	}) {
		t.Errorf("no audit row of the proposal tells its cross-validation: %q", summaries)
	}
	for typ, count := range want {
		if got := countOf(types, typ); got != count {
			t.Errorf("audit trail of the proposal: %d × %s, want %d (rows %v)", got, typ, count, types)
		}
	}
	pub.open("/desk/audit", `[data-testid="audit-table"]`)
	all := browsertest.Value(t, pub.ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll('[data-testid="audit-row"]')).map(r => r.dataset.type)`))
	if !slices.Contains(all, events.TypeEditionPublished) {
		t.Errorf("the audit trail does not show the edition: %v", all)
	}

	// The pages the story did not pass through, each checked by axe-core
	// as it opens.
	editor.open("/desk/proposals/new", `[data-testid="open-existing-form"]`)
	editor.open("/desk/account", `[data-testid="password-form"]`)
	editor.open("/desk/entries/"+webtest.DemoRanking+"/ppio", `main`)
	pub.open("/desk/publish", `main`)
	admin := e.signIn(ts.URL, "admin")
	admin.open("/desk/users", `main`)
}

func countOf(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}

// hasPublishPage reports whether the server has the publish page.
func (e *demoEnv) hasPublishPage(base string) bool {
	c := e.Client("publisher")
	res, body := c.Do(http.MethodGet, "/desk/publish?ranking="+webtest.DemoRanking, nil, nil)
	return res.StatusCode == http.StatusOK && strings.Contains(body, `data-testid="publish-ranking-`+webtest.DemoRanking+`"`)
}

// publishByAPI publishes the proposal as the browser's user through the
// JSON API with the hash of the domain's preview: the fallback when the
// publish page is missing.
func (e *demoEnv) publishByAPI(b *userBrowser, id string) {
	e.T.Helper()
	pv, _, err := e.Cmd.PreviewEdition(e.Ctx, webtest.DemoRanking, []string{id})
	if err != nil {
		e.T.Fatal(err)
	}
	c := e.Client(b.user)
	res, body := c.PostJSON("/api/v1/rankings/"+webtest.DemoRanking+"/editions",
		map[string]any{"proposals": []string{id}, "preview_hash": pv.Hash}, nil)
	if res.StatusCode != http.StatusCreated {
		e.T.Fatalf("publish through the API: status %d, %s", res.StatusCode, body)
	}
}

// waitStatus waits until the proposal reaches status in the event store and
// the read models caught up.
func (e *demoEnv) waitStatus(id string, want domain.Status) {
	e.T.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		p, err := e.Cmd.Proposal(e.Ctx, id)
		if err == nil && p.Status == want {
			e.CaughtUp()
			return
		}
		if time.Now().After(deadline) {
			e.T.Fatalf("proposal %s never reached %s (err %v)", id, want, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
