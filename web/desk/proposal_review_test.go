package desk_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestReviewPage follows the demo's proposal in review through a veto, its
// dismissal, a replaced vote, cross-validation and a revision, checking
// what the review page says at each step, in both languages.
func TestReviewPage(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	id := webtest.DemoInReview
	r2 := e.Client("reviewer2")

	doc := e.Page(r2, "/desk/proposals/"+id, http.StatusOK)
	if got := webtest.TestText(doc, "quorum-summary"); got != "Needs 1 more approval" {
		t.Errorf("quorum %q", got)
	}
	if webtest.TestCount(doc, "vote-reviewer1") != 1 || doc.Find(`[data-testid="vote-reviewer1"]`).AttrOr("data-verdict", "") != "approve" {
		t.Error("reviewer1's approval is not listed")
	}
	evidence := doc.Find(`[data-testid="approve-form"] input[name="verified_evidence"]`)
	if evidence.Length() == 0 || evidence.Length() != doc.Find(`[data-testid^="evidence-e"][id]`).Length() {
		t.Errorf("approve form lists %d evidence items", evidence.Length())
	}
	var all []string
	evidence.Each(func(_ int, s *goquery.Selection) { all = append(all, s.AttrOr("value", "")) })
	if row := doc.Find(`[data-testid="diff-score-` + demo.CritOnboarding + `"]`); strings.TrimSpace(row.Find(`[data-testid="diff-label"]`).Text()) != "Ease of onboarding" ||
		strings.TrimSpace(row.Find(`[data-testid="diff-before"]`).Text()) != "not scored" {
		t.Errorf("diff row %q", strings.TrimSpace(row.Text()))
	}

	// A veto, in words, in both languages. Sent twice (a double click),
	// it is one vote.
	veto := url.Values{"verdict": {"reject"}, "revision": {"1"}, "comment": {"The excerpt does not say this."},
		httpx.CommandIDField: {events.NewID(time.Now())}}
	before := e.LastSeq()
	e.MustPost(r2, id, "votes", veto)
	e.MustPost(r2, id, "votes", veto)
	if got := e.LastSeq() - before; got != 1 {
		t.Errorf("a double-submitted vote appended %d events, want 1", got)
	}
	doc = e.Page(r2, "/desk/proposals/"+id, http.StatusOK)
	if got := webtest.TestText(doc, "quorum-vetoes"); got != "1 open veto by reviewer2" {
		t.Errorf("veto clause %q", got)
	}
	if webtest.TestCount(doc, "vote-veto") != 1 || webtest.TestText(doc, "vote-comment") == "" {
		t.Error("the veto is not marked on reviewer2's vote")
	}
	zh := e.Client("reviewer1")
	zh.Header.Set("Accept-Language", "zh-CN")
	doc = e.Page(zh, "/desk/proposals/"+id, http.StatusOK)
	if got := webtest.TestText(doc, "quorum-summary"); got != "还需 1 票赞成；1 票否决未撤销（reviewer2）" {
		t.Errorf("zh quorum %q", got)
	}

	// The publisher may dismiss it, with a reason that stays on the vote.
	pub := e.Client("publisher")
	doc = e.Page(pub, "/desk/proposals/"+id, http.StatusOK)
	if doc.Find(`[data-testid="dismiss-voter"] option[value="reviewer2"]`).Length() != 1 {
		t.Fatal("the dismiss form does not offer reviewer2's veto")
	}
	e.Refused(pub, "/desk/proposals/"+id+"/dismiss-veto", url.Values{"voter": {"reviewer2"}}, http.StatusUnprocessableEntity)
	e.MustPost(pub, id, "dismiss-veto", url.Values{"voter": {"reviewer2"}, "reason": {"The excerpt is in §4."}})
	doc = e.Page(r2, "/desk/proposals/"+id, http.StatusOK)
	if webtest.TestCount(doc, "quorum-vetoes") != 0 || !strings.Contains(webtest.TestText(doc, "vote-dismissed"), "publisher") {
		t.Errorf("after dismissal: quorum %q, dismissal %q", webtest.TestText(doc, "quorum-summary"), webtest.TestText(doc, "vote-dismissed"))
	}
	if webtest.TestCount(e.Page(pub, "/desk/proposals/"+id, http.StatusOK), "dismiss-form") != 0 {
		t.Error("dismiss offered with no open veto")
	}

	// Approving replaces reviewer2's reject; with every item verified the
	// proposal is cross-validated.
	e.MustPost(r2, id, "votes", url.Values{"verdict": {"approve"}, "revision": {"1"}, "verified_evidence": all})
	doc = e.Page(r2, "/desk/proposals/"+id, http.StatusOK)
	if docStatus(doc) != string(domain.StatusCrossValidated) {
		t.Errorf("status %q, want cross_validated", docStatus(doc))
	}
	if got := webtest.TestText(doc, "quorum-summary"); got != "Quorum met: approved by reviewer1, reviewer2" {
		t.Errorf("quorum %q", got)
	}
	if webtest.TestCount(doc, "replaced-vote-reviewer2") != 1 || doc.Find(`[data-testid="replaced-vote-reviewer2"]`).AttrOr("data-verdict", "") != "reject" {
		t.Error("reviewer2's replaced reject is not in the history")
	}

	// Revising outdates both approvals.
	e.MustPost(e.Client("editor"), id, "revise", url.Values{"note": {"Second look at §4"}})
	doc = e.Page(r2, "/desk/proposals/"+id, http.StatusOK)
	if webtest.TestCount(doc, "vote-outdated") != 2 {
		t.Errorf("%d outdated approvals, want 2", webtest.TestCount(doc, "vote-outdated"))
	}
	if got := webtest.TestText(doc, "quorum-outdated"); got != "the approvals by reviewer1, reviewer2 are outdated (earlier revision)" {
		t.Errorf("outdated clause %q", got)
	}
	if !strings.Contains(webtest.TestText(doc, "revision-2"), "Second look at §4") {
		t.Errorf("revision 2 %q", webtest.TestText(doc, "revision-2"))
	}
	if webtest.TestCount(doc, "approve-form") != 0 {
		t.Error("a vote is offered on a draft")
	}
}

// TestReviewStaleBaseline: when an edition publishes a value that another
// cross-validated proposal used as its baseline, that proposal's page says
// so and asks for a revision.
func TestReviewStaleBaseline(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	ed := e.Client("editor")
	// Both change qingjiao's unpublished onboarding score from "none".
	id := e.Reviewable(ed, "qingjiao", demo.CritOnboarding, 4)
	for _, r := range []string{"reviewer1", "reviewer2"} {
		e.MustPost(e.Client(r), id, "votes", url.Values{"verdict": {"approve"}, "revision": {"1"}, "verified_evidence": {"e1"}})
	}
	// A draft with the same baseline, not yet submitted.
	draft := e.OpenProposal(ed, "qingjiao")
	e.MustPost(ed, draft, "evidence", url.Values{"claim": {"c"}, "source_name": {"s"}, "excerpt": {"x"}, "observed_on": {"2026-01-01"}})
	e.MustPost(ed, draft, "changes", url.Values{"criterion": {demo.CritOnboarding}, "to": {"6"}, "rationale": {"r"}, "evidence": {"e1"}})
	pv, _, err := e.Cmd.PreviewEdition(e.Ctx, webtest.DemoRanking, []string{webtest.DemoValidated})
	if err != nil {
		t.Fatal(err)
	}
	head, seq, _ := e.Read.AuditHead(e.Ctx)
	candidates, _ := e.Read.CrossValidated(e.Ctx, webtest.DemoRanking)
	if _, err := e.Cmd.Publish(e.Ctx, domain.Actor{Name: "publisher", Roles: []string{domain.RolePublisher}},
		domain.PublishEdition{Ranking: webtest.DemoRanking, Proposals: []string{webtest.DemoValidated}, PreviewHash: pv.Hash, AuditHead: head, AuditSeq: seq, Candidates: candidates}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	doc := e.Page(ed, "/desk/proposals/"+id, http.StatusOK)
	if docStatus(doc) != string(domain.StatusInReview) {
		t.Errorf("status %q, want in_review", docStatus(doc))
	}
	if got := webtest.TestText(doc, "quorum-stale"); got != "Baseline changed: Ease of onboarding was published since; revise the proposal" {
		t.Errorf("stale clause %q", got)
	}
	if got := webtest.TestText(doc, "diff-stale"); !strings.HasPrefix(got, "baseline changed: now published ") {
		t.Errorf("diff stale note %q", got)
	}
	if webtest.TestCount(doc, "revise-form") != 1 {
		t.Error("the author is not offered a revision")
	}

	// The draft cannot be submitted until its change is proposed again
	// from the new published value.
	doc = e.Page(ed, "/desk/proposals/"+draft, http.StatusOK)
	if webtest.TestCount(doc, "submit") != 0 || !strings.Contains(webtest.TestText(doc, "submit-unavailable"), "propose that change again") {
		t.Errorf("stale draft: submit offered %d, note %q", webtest.TestCount(doc, "submit"), webtest.TestText(doc, "submit-unavailable"))
	}
	e.Refused(ed, "/desk/proposals/"+draft+"/submit", url.Values{}, http.StatusConflict)
	e.MustPost(ed, draft, "changes", url.Values{"criterion": {demo.CritOnboarding}, "to": {"6"}, "rationale": {"r"}, "evidence": {"e1"}})
	if webtest.TestCount(e.Page(ed, "/desk/proposals/"+draft, http.StatusOK), "submit") != 1 {
		t.Error("submit not offered once the change was proposed again")
	}
}
