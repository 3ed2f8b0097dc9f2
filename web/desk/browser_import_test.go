package desk_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/webtest"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// The ranking TestBrowserImportReviewPublish brings in: big enough that
// every list pages (the review queue's largest page is 100 rows, the
// publish form posts "all" past 200 proposals), small enough for CI.
const (
	scaleSlug     = "e2e-scale"
	scaleEntries  = 300
	scaleCriteria = 3
)

// TestBrowserImportReviewPublish takes a generated ranking file of 300
// entries × 3 criteria from upload to its first edition in Chromium, as
// the desk's users would: the editor uploads it on /desk/import, reads the
// dry run's counts and confirms; two reviewers each tick every evidence
// item and approve on /desk/review, 100 proposals a page; the publisher
// publishes all 301 proposals (the definition and 300 entries) as one
// edition from the publish page; the public page shows edition 1, page 1
// with a pager; and verify passes on the store and read models.
func TestBrowserImportReviewPublish(t *testing.T) {
	browsertest.SkipShort(t)
	e := newDemoEnv(t)
	ts := httptest.NewServer(e.Srv.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(e.Srv.CloseStreams) // runs first: open desk pages follow the inbox count
	file := rankfile.Generate(scaleSlug, rankfile.Size{Entries: scaleEntries, Criteria: scaleCriteria, Evidence: 2, Seed: 26})
	data, err := json.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ranking.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// One Chromium; the users take turns signing in and out.
	start := time.Now()
	lap := func(what string) { t.Logf("%6.2fs %s", time.Since(start).Seconds(), what) }
	b := &userBrowser{t: t, ctx: browsertest.NewBrowser(t, 1280, 1024), base: ts.URL}
	proposals := scaleEntries + 1 // an entry proposal each, and the ranking's definition

	// The editor's upload: the dry run's counts, then the confirmation.
	b.signInAs("editor")
	b.do(
		chromedp.Navigate(ts.URL+"/desk/import"),
		chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-file"]`), []string{path}),
		chromedp.Click(chromedp.CSS(`[data-testid="import-check"]`)),
		// The job's page reloads itself while it runs; the wait spans the reloads.
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="import-job"][data-state="checked"] [data-testid="import-confirm"]`)),
	)
	lap("checked")
	browsertest.CheckAccessibility(t, b.ctx, "the import's dry run")
	before := e.LastSeq()
	for key, want := range map[string]int{"entries": scaleEntries, "new_entries": scaleEntries,
		"changed_scores": scaleEntries * scaleCriteria, "open": proposals, "problems": 0} {
		if got := b.number(`[data-testid="import-count-` + key + `"] [data-testid="import-count"]`); got != want {
			t.Errorf("dry run: %s = %d, want %d", key, got, want)
		}
	}
	b.do(chromedp.Click(chromedp.CSS(`[data-testid="import-confirm"]`)))
	// Opening 301 proposals is some 2,000 commands, each stored with an
	// fsync: on a loaded machine that outlasts a step's 30 seconds.
	b.waitFor(`[data-testid="import-job"][data-state="done"] [data-testid="import-opened"]`, 3*time.Minute)
	lap("opened")
	if e.LastSeq() == before {
		t.Fatal("confirming stored nothing")
	}

	// Two reviewers, a page of 100 at a time. After approving a page each
	// comes back to the queue of what they have not approved yet
	// (unapproved=1, issue 42 item 9), so page 1 fills with the rest each
	// time: reviewer1's approvals leave the proposals in review, reviewer2's
	// make them cross-validated.
	queue := "/desk/review?ranking=" + scaleSlug + "&per=100"
	for _, reviewer := range []string{"reviewer1", "reviewer2"} {
		b.signInAs(reviewer)
		b.do(chromedp.Navigate(ts.URL+queue), chromedp.WaitVisible(chromedp.CSS(`[data-testid="review-count"]`)))
		if got := b.attr(`[data-testid="review-count"]`, "data-total"); got != strconv.Itoa(proposals) {
			t.Fatalf("%s's queue holds %s proposals, want %d", reviewer, got, proposals)
		}
		if reviewer == "reviewer1" {
			browsertest.CheckAccessibility(t, b.ctx, "the review queue, 100 a page")
		}
		approved := 0
		for page := 1; ; page++ {
			rows := b.count(`[data-testid="review-row"]`)
			if rows == 0 || page > proposals {
				break
			}
			approved += b.approvePage(rows)
			lap(reviewer + " page")
		}
		if approved != proposals {
			t.Errorf("%s approved %d proposals, want %d", reviewer, approved, proposals)
		}
	}
	if got := b.attr(`[data-testid="review-count"]`, "data-total"); got != "0" {
		t.Errorf("after both reviewers, %s proposals still await review", got)
	}

	// The publisher publishes all of them as one edition.
	b.signInAs("publisher")
	sec := `[data-testid="publish-ranking-` + scaleSlug + `"]`
	b.do(chromedp.Navigate(ts.URL+"/desk/publish"), chromedp.WaitVisible(chromedp.CSS(sec+` [data-testid="preview-size"]`)))
	browsertest.CheckAccessibility(t, b.ctx, "the publish page with paged candidates")
	if got := b.count(sec + ` [data-testid="candidate-pager"] [data-testid^="candidate-page-"]`); got == 0 {
		t.Error("301 candidates, and no pages to choose among them")
	}
	size := b.textOf(sec + ` [data-testid="preview-size"]`)
	for _, n := range []int{proposals, scaleEntries, scaleEntries * scaleCriteria} {
		if !strings.Contains(size, strconv.Itoa(n)) {
			t.Errorf("the preview's size %q does not say %d", size, n)
		}
	}
	b.do(
		chromedp.Click(chromedp.CSS(sec+` [data-testid="publish-confirm"]`)),
		chromedp.Click(chromedp.CSS(sec+` [data-testid="publish-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="edition"][data-edition="1"]`)),
	)
	if got := browsertest.Value(t, b.ctx, chromedp.Location()); !strings.HasSuffix(got, "/r/"+scaleSlug+"/editions/1?published=1") {
		t.Errorf("after publishing: %s", got)
	}

	lap("published")
	// The public page: edition 1, its first page, a pager.
	b.do(chromedp.Navigate(ts.URL+"/r/"+scaleSlug), chromedp.WaitVisible(chromedp.CSS(`[data-testid="ranking-pager"]`)))
	if got := b.textOf(`[data-testid="edition-number"]`); got != "Edition 1" {
		t.Errorf("public page: %q, want Edition 1", got)
	}
	pages, _ := strconv.Atoi(b.attr(`[data-testid="ranking-pager"]`, "data-pages"))
	rows := b.count(`[data-testid="ranking-row"]`)
	if got := b.attr(`[data-testid="ranking-pager"]`, "data-total"); got != strconv.Itoa(scaleEntries) || pages < 2 || rows == 0 || rows >= scaleEntries {
		t.Errorf("public page 1: %d rows, %d pages, %s entries in all", rows, pages, got)
	}
	ed, err := e.Cmd.Edition(e.Ctx, scaleSlug)
	if err != nil {
		t.Fatal(err)
	}
	if ed.Number != 1 || len(ed.Entries) != scaleEntries {
		t.Errorf("edition %d with %d entries, want 1 with %d", ed.Number, len(ed.Entries), scaleEntries)
	}
	lap("public")
	e.CaughtUp()
	defer lap("verified")
	if _, err := projections.Verify(e.Ctx, e.Store, e.Read.DB()); err != nil {
		t.Errorf("verify: %v", err)
	}
}

// signInAs signs the browser's current user out, if any, and user in
// through the sign-in form.
func (b *userBrowser) signInAs(user string) {
	b.t.Helper()
	if b.user != "" {
		b.do(chromedp.Click(chromedp.CSS(`[data-testid="signout"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="signin"]`)))
	}
	b.user = user
	b.do(
		chromedp.Navigate(b.base+"/login?next=%2Fdesk&lang=en"),
		chromedp.SendKeys(chromedp.CSS(`#username`), user),
		chromedp.SendKeys(chromedp.CSS(`#password`), webtest.Password),
		chromedp.Click(chromedp.CSS(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="dashboard"]`)),
	)
}

// approvePage ticks every proposal of the review queue's page and every
// evidence item of each, approves them, and returns how many approvals
// the answer says were stored (it fails the test if any was refused).
func (b *userBrowser) approvePage(rows int) int {
	b.t.Helper()
	ticked := browsertest.Value(b.t, b.ctx, chromedp.Evaluate[int](`(() => {
		// The last batch's summary goes, so the wait below sees the new one.
		document.querySelector('[data-testid="review-summary"]')?.remove();
		const boxes = document.querySelectorAll('[data-testid="review-select"], [data-testid="review-verify"]');
		boxes.forEach(box => { if (!box.checked) box.click(); });
		return document.querySelectorAll('[data-testid="review-select"]:checked').length;
	})()`))
	if ticked != rows {
		b.t.Fatalf("%s ticked %d of %d proposals", b.user, ticked, rows)
	}
	b.do(
		chromedp.Click(chromedp.CSS(`[data-testid="review-approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="review-summary"]`)),
	)
	q := browsertest.Value(b.t, b.ctx, chromedp.Evaluate[map[string]string](`Object.fromEntries(new URL(location).searchParams)`))
	if q["refused"] != "" {
		b.t.Fatalf("%s: votes refused: %s (%s)", b.user, q["refused"], b.textOf(`[data-testid="review-summary"]`))
	}
	n, _ := strconv.Atoi(q["voted"])
	return n
}

// waitFor waits until an element matches sel, across the page's own
// reloads, for at most within.
func (b *userBrowser) waitFor(sel string, within time.Duration) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, within)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(sel))); err != nil {
		b.t.Fatalf("%s: waiting for %s: %v", b.user, sel, err)
	}
}

// count is how many elements match sel.
func (b *userBrowser) count(sel string) int {
	b.t.Helper()
	return browsertest.Value(b.t, b.ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`))
}

// number is the whole number the first element matching sel shows (-1
// when it shows none).
func (b *userBrowser) number(sel string) int {
	b.t.Helper()
	n, err := strconv.Atoi(b.textOf(sel))
	if err != nil {
		return -1
	}
	return n
}

// attr is an attribute of the first element matching sel ("" if none).
func (b *userBrowser) attr(sel, name string) string {
	b.t.Helper()
	return browsertest.Value(b.t, b.ctx, chromedp.Evaluate[string](`document.querySelector(`+strconv.Quote(sel)+`)?.getAttribute(`+strconv.Quote(name)+`) ?? ""`))
}

// textOf is the trimmed text of the first element matching sel.
func (b *userBrowser) textOf(sel string) string {
	b.t.Helper()
	return strings.TrimSpace(browsertest.Value(b.t, b.ctx, chromedp.Text(chromedp.CSS(sel))))
}
