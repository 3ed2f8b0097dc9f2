package desk_test

import (
	"net/http"
	"net/url"
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
