package desk_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestReviewQueueWords: a batch with nothing ticked says what to do
// ("Tick the proposals to approve."), not "Votes is required." about a
// field the page does not show; a batch of one says "1 approval stored.",
// in the catalogs' plural forms, in both languages.
func TestReviewQueueWords(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	id := e.Reviewable(e.Client("editor"), "ppio", demo.CritDelivery, 7)
	rev := e.Client("reviewer1")
	for lang, want := range map[string]string{"en": "Tick the proposals to approve.", "zh": "请先勾选你要赞成的提案。"} {
		rev.Header.Set("Accept-Language", lang)
		doc := e.Refused(rev, "/desk/review", url.Values{"verdict": {"approve"}}, http.StatusUnprocessableEntity)
		if got := webtest.TestText(doc, "form-error"); got != want {
			t.Errorf("%s: nothing ticked says %q, want %q", lang, got, want)
		}
	}
	rev.Header.Set("Accept-Language", "en")
	status, loc, _ := e.Post(rev, "/desk/review", url.Values{"verdict": {"approve"}, "proposal": {id},
		"revision." + id: {"1"}, "verified." + id: {"e1"}})
	if status != http.StatusSeeOther {
		t.Fatalf("batch of one: status %d", status)
	}
	for lang, want := range map[string]string{"en": "1 approval stored.", "zh": "已记录 1 张赞成票，每张都是独立的投票。"} {
		rev.Header.Set("Accept-Language", lang)
		doc := e.Page(rev, loc, http.StatusOK)
		if got := doc.Find(`[data-testid="review-summary-line"]`).First().Text(); got != want {
			t.Errorf("%s: the summary of one approval says %q, want %q", lang, got, want)
		}
	}
}

// TestApproveAsks: on the proposal page an approval ticking none of the
// revision's evidence comes back with the question and a box to confirm
// it, storing nothing (without JavaScript: the question is the page);
// confirmed, it is stored. A reviewer whose approval of the revision
// stands reads "You approved this revision." instead of another Approve
// button, which is offered folded only while evidence is left for them to
// verify.
func TestApproveAsks(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	id := e.Reviewable(e.Client("editor"), "ppio", demo.CritDelivery, 7)
	target := "/desk/proposals/" + id + "/votes"
	rev := e.Client("reviewer1")
	for lang, want := range map[string]string{
		"en": "Approve without verifying any evidence? Tick the evidence you checked against its source, or confirm below.",
		"zh": "不核实任何证据就投赞成票吗？请勾选你已对照来源核实的证据，或在下方确认。",
	} {
		rev.Header.Set("Accept-Language", lang)
		doc := e.Refused(rev, target, url.Values{"verdict": {"approve"}, "revision": {"1"}, "comment": {"Looks right"}}, http.StatusUnprocessableEntity)
		if got := webtest.TestText(doc, "form-error"); got != want {
			t.Errorf("%s: an approval verifying nothing says %q, want %q", lang, got, want)
		}
		if webtest.TestCount(doc, "approve-unverified-ok") != 1 || doc.Find(`[data-testid="approve-comment"]`).Text() != "Looks right" {
			t.Errorf("%s: the question offers no box to confirm, or lost the comment", lang)
		}
	}
	rev.Header.Set("Accept-Language", "en")
	e.MustPost(rev, id, "votes", url.Values{"verdict": {"approve"}, "revision": {"1"}, "unverified_ok": {"1"}})
	e.CaughtUp()
	doc := e.Page(rev, "/desk/proposals/"+id, http.StatusOK)
	if got := webtest.TestText(doc, "approved-by-me"); got != "You approved this revision." {
		t.Errorf("after approving: %q", got)
	}
	if doc.Find(`details [data-testid="approve-form"]`).Length() != 1 || doc.Find(`[data-testid="approve-form"]`).Length() != 1 {
		t.Error("with e1 left to verify, approving again is not offered folded")
	}

	// reviewer2 verifies e1: nothing is left to approve again.
	rev2 := e.Client("reviewer2")
	e.MustPost(rev2, id, "votes", url.Values{"verdict": {"approve"}, "revision": {"1"}, "verified_evidence": {"e1"}})
	e.CaughtUp()
	for lang, want := range map[string]string{"en": "You approved this revision.", "zh": "你已赞成此修订版本。"} {
		rev2.Header.Set("Accept-Language", lang)
		doc := e.Page(rev2, "/desk/proposals/"+id, http.StatusOK)
		if got := webtest.TestText(doc, "approved-by-me"); got != want {
			t.Errorf("%s: after approving: %q, want %q", lang, got, want)
		}
		if webtest.TestCount(doc, "approve-form") != 0 || webtest.TestCount(doc, "reject-vote-form") != 1 {
			t.Errorf("%s: an Approve button is still offered, or the veto is not", lang)
		}
	}
}

// TestEmptyStatesSayWhatNext: an empty list says what to do next, in both
// languages: the editor's new draft has no evidence and no change yet,
// and reviewer1 of the demo has nothing awaiting their review.
func TestEmptyStatesSayWhatNext(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	ed := e.Client("editor")
	id := e.OpenProposal(ed, "ppio")
	rev := e.Client("reviewer1")
	for _, c := range []struct {
		who      *webtest.Client
		page, id string
		en, zh   string
	}{
		{ed, "/desk/proposals/" + id, "evidence-empty",
			"No evidence yet. Add the source that backs the change first; a change must cite it.",
			"尚无证据。请先添加支持这项修改的来源，修改需要引用它。"},
		{ed, "/desk/proposals/" + id, "diff-empty",
			"No change proposed yet. Propose a score or an attribute below, citing its evidence.",
			"尚未提出修改。请在下方提出评分或属性修改，并引用证据。"},
		{rev, "/desk", "queue-awaiting-review-empty",
			"Nothing awaits your review. The review queue lists every proposal in review that you have not approved yet.",
			"目前没有待你审核的提案。审核队列列出了所有审核中、你尚未赞成的提案。"},
	} {
		for lang, want := range map[string]string{"en": c.en, "zh": c.zh} {
			c.who.Header.Set("Accept-Language", lang)
			if got := webtest.TestText(e.Page(c.who, c.page, http.StatusOK), c.id); got != want {
				t.Errorf("%s %s: %q, want %q", lang, c.id, got, want)
			}
		}
	}
}

// TestPublishCounts: the publish page counts in the catalogs' plural
// forms. The demo holds one cross-validated proposal with one change, so
// its preview says "1 cross-validated proposal" and "releases 1
// proposal: 0 new entries, 1 change", not "1 proposals"; the dashboard
// then lists edition 2 with "1 change".
func TestPublishCounts(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	pub := e.Client("publisher")
	want := map[string][2]string{
		"en": {"1 cross-validated proposal; 1 in this preview.", "This edition releases 1 proposal: 0 new entries, 1 change; the ranking after it has 9 entries."},
		"zh": {"共 1 个已交叉验证的提案，本预览包含 1 个。", "本期发布 1 条提案：0 个新条目，1 处变更；发布后榜单共 9 个条目。"},
	}
	var form url.Values
	for lang, w := range want {
		pub.Header.Set("Accept-Language", lang)
		doc := e.Page(pub, "/desk/publish", http.StatusOK)
		if got := webtest.TestText(doc, "publish-ready-count"); got != w[0] {
			t.Errorf("%s: ready count %q, want %q", lang, got, w[0])
		}
		if got := webtest.TestText(doc, "preview-size"); got != w[1] {
			t.Errorf("%s: preview size %q, want %q", lang, got, w[1])
		}
		form = webtest.FormValues(doc.Find(`[data-testid="publish-form-` + demo.RankingSlug + `"]`))
	}
	pub.Header.Set("Accept-Language", "en")
	if status, _, _ := e.Post(pub, "/desk/publish", form); status != http.StatusSeeOther {
		t.Fatalf("publish: status %d", status)
	}
	e.CaughtUp()
	recent := e.Page(pub, "/desk", http.StatusOK).Find(`[data-testid="queue-recent"]`).Text()
	if !strings.Contains(recent, "· 1 change") {
		t.Errorf("the dashboard's recent editions: %q, want edition 2 with 1 change", recent)
	}
	if strings.Contains(recent, "1 changes") {
		t.Errorf("the dashboard's recent editions say %q", recent)
	}
}

// TestApprovalSaysCrossValidated: the approval that completes a quorum
// says the proposal is now cross-validated, on the proposal page it leads
// to and in the review queue's summary, in both languages.
func TestApprovalSaysCrossValidated(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	// The demo's proposal awaiting one more review waits for reviewer2.
	rev2 := e.Client("reviewer2")
	id := "demo-huawei-cloud-2"
	status, loc, doc := e.Post(rev2, "/desk/proposals/"+id+"/votes", url.Values{"verdict": {"approve"}, "revision": {"1"}, "verified_evidence": {"e1"}})
	if status != http.StatusSeeOther || loc != "/desk/proposals/"+id+"?validated=1" {
		t.Fatalf("approve: status %d Location %q; error %q", status, loc, webtest.TestText(doc, "form-error"))
	}
	for lang, want := range map[string]string{"en": "Approved: the proposal is now cross-validated and ready to publish.", "zh": "已投赞成票：提案现已通过交叉验证，可以发布。"} {
		rev2.Header.Set("Accept-Language", lang)
		if got := webtest.TestText(e.Page(rev2, loc, http.StatusOK), "notice"); got != want {
			t.Errorf("%s: after the approval that cross-validated it: %q, want %q", lang, got, want)
		}
	}

	// In the queue: reviewer1's approval leaves one more to go, reviewer2's
	// completes the quorum.
	other := e.Reviewable(e.Client("editor"), "ppio", demo.CritDelivery, 7)
	batch := url.Values{"verdict": {"approve"}, "proposal": {other}, "revision." + other: {"1"}, "verified." + other: {"e1"}}
	if status, loc, _ := e.Post(e.Client("reviewer1"), "/desk/review", batch); status != http.StatusSeeOther || strings.Contains(loc, "validated=") {
		t.Fatalf("the first approval: status %d Location %q", status, loc)
	}
	delete(batch, "cmd_id")
	status, loc, _ = e.Post(rev2, "/desk/review", batch)
	if status != http.StatusSeeOther {
		t.Fatalf("the second approval: status %d", status)
	}
	for lang, want := range map[string]string{"en": "1 proposal is now cross-validated and ready to publish.", "zh": "1 个提案现已通过交叉验证，可以发布。"} {
		rev2.Header.Set("Accept-Language", lang)
		lines := e.Page(rev2, loc, http.StatusOK).Find(`[data-testid="review-summary-line"]`)
		if got := lines.Eq(1).Text(); lines.Length() != 2 || got != want {
			t.Errorf("%s: the summary's second line %q (of %d), want %q", lang, got, lines.Length(), want)
		}
	}
}

// TestStaleCountsAgree: the dashboard's stale evidence and the entry
// page's "3 evidence items may be out of date" count the same thing: each
// stale evidence item once, however many published values cite it (the
// demo's e5 and e6 back a score and an attribute of Zhixingyun; the
// dashboard counted 5 rows, one per value).
func TestStaleCountsAgree(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	ed := e.Client("editor")
	dash := e.Page(ed, "/desk", http.StatusOK)
	n, _, shown := webtest.Queue(dash, "stale")
	if !shown || n == 0 {
		t.Fatalf("the demo shows no stale evidence (shown %v, %d)", shown, n)
	}
	if rows := dash.Find(`[data-testid="queue-stale-items"] > li`).Length(); rows != n {
		t.Errorf("the stale queue lists %d rows and counts %d", rows, n)
	}
	for lang, want := range map[string]string{"en": strconv.Itoa(n) + " evidence items may be out of date.", "zh": "有 " + strconv.Itoa(n) + " 条证据可能已过时。"} {
		ed.Header.Set("Accept-Language", lang)
		doc := e.Page(ed, "/r/"+demo.RankingSlug+"/e/zhixingyun", http.StatusOK)
		if got := webtest.TestText(doc, "stale-summary"); got != want {
			t.Errorf("%s: the entry page says %q; the dashboard counts %d", lang, got, n)
		}
	}
}

// TestProposalsByTitle: the publish preview's changes and the desk's
// entry page name proposals by their titles, not their ids.
func TestProposalsByTitle(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	title := func(id string) string {
		d, err := e.Read.Proposal(e.Ctx, id)
		if err != nil || d.Title == "" {
			t.Fatalf("proposal %s: %+v, %v", id, d.Title, err)
		}
		return d.Title
	}
	doc := e.Page(e.Client("publisher"), "/desk/publish", http.StatusOK)
	if got, want := webtest.TestText(doc, "change-proposal"), title(webtest.DemoReady); got != want {
		t.Errorf("the preview's change names its proposal %q, want %q", got, want)
	}
	doc = e.Page(e.Client("editor"), "/desk/entries/"+demo.RankingSlug+"/zhixingyun", http.StatusOK)
	links := doc.Find(`[data-testid="score-proposal"]`)
	if links.Length() == 0 {
		t.Fatal("the entry page links no proposal of a score")
	}
	if got, want := links.First().Text(), title("demo-zhixingyun-1"); got != want {
		t.Errorf("the entry page names the score's proposal %q, want %q", got, want)
	}
}
