package web

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/crossrank/crossrank/domain/demo"
)

// TestProposalRoleRules checks each role rule twice: the page offers no
// form the user may not use, and a hand-made post is refused with the
// right status and appends nothing.
func TestProposalRoleRules(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	p := func(id, action string) string { return "/desk/proposals/" + id + "/" + action }
	evidence := url.Values{"claim": {"c"}, "source_name": {"s"}, "excerpt": {"x"}, "observed_on": {"2026-01-01"}}
	approve := func(rev string) url.Values {
		return url.Values{"verdict": {"approve"}, "revision": {rev}, "verified_evidence": {"e1"}}
	}

	t.Run("a reviewer cannot edit someone's draft", func(t *testing.T) {
		c := e.client("reviewer1")
		doc := e.page(c, "/desk/proposals/"+demoDraft, http.StatusOK)
		for _, tid := range []string{"editor", "evidence-form", "score-form", "submit-form", "approve-form", "revise-form", "withdraw-form"} {
			if testCount(doc, tid) != 0 {
				t.Errorf("reviewer sees %s on the editor's draft", tid)
			}
		}
		e.refused(c, p(demoDraft, "evidence"), evidence, http.StatusForbidden)
		e.refused(c, p(demoDraft, "changes"), url.Values{"criterion": {demo.CritCluster}, "to": {"5"}, "rationale": {"r"}, "evidence": {"e1"}}, http.StatusForbidden)
		e.refused(c, p(demoDraft, "changes/remove"), url.Values{"target": {"score:" + demo.CritCluster}}, http.StatusForbidden)
		doc = e.refused(c, p(demoDraft, "submit"), url.Values{}, http.StatusForbidden)
		if testText(doc, "form-error") != "Your account does not hold the role this action needs." {
			t.Errorf("message %q", testText(doc, "form-error"))
		}
	})

	t.Run("another editor cannot edit the draft", func(t *testing.T) {
		c := e.client("eve")
		if testCount(e.page(c, "/desk/proposals/"+demoDraft, http.StatusOK), "editor") != 0 {
			t.Error("eve sees the editor's draft forms")
		}
		doc := e.refused(c, p(demoDraft, "evidence"), evidence, http.StatusForbidden)
		if testText(doc, "form-error") != "Only the author or a reviser may change this proposal." {
			t.Errorf("message %q", testText(doc, "form-error"))
		}
	})

	t.Run("an editor who reviews cannot vote on their own proposal", func(t *testing.T) {
		c := e.client("eve")
		id := e.reviewable(c, "ppio", demo.CritGraphics, 9)
		doc := e.page(c, "/desk/proposals/"+id, http.StatusOK)
		if testCount(doc, "approve-form")+testCount(doc, "reject-vote-form") != 0 {
			t.Error("eve is offered a vote on her own proposal")
		}
		doc = e.refused(c, p(id, "votes"), approve("1"), http.StatusForbidden)
		if testText(doc, "form-error") != "The author or a reviser of a proposal cannot vote on it." {
			t.Errorf("message %q", testText(doc, "form-error"))
		}
		if testCount(e.page(e.client("reviewer1"), "/desk/proposals/"+id, http.StatusOK), "approve-form") != 1 {
			t.Error("another reviewer is not offered the vote")
		}
	})

	t.Run("an editor who publishes cannot reject or dismiss on their own proposal", func(t *testing.T) {
		c := e.client("max")
		id := e.reviewable(c, "volcengine", demo.CritGraphics, 8)
		e.mustPost(e.client("reviewer1"), id, "votes", url.Values{"verdict": {"reject"}, "revision": {"1"}, "comment": {"No source"}})
		doc := e.page(c, "/desk/proposals/"+id, http.StatusOK)
		if testCount(doc, "reject-form")+testCount(doc, "dismiss-form") != 0 {
			t.Error("max is offered to reject or dismiss on his own proposal")
		}
		e.refused(c, p(id, "reject"), url.Values{"reason": {"mine"}}, http.StatusForbidden)
		e.refused(c, p(id, "dismiss-veto"), url.Values{"voter": {"reviewer1"}, "reason": {"mine"}}, http.StatusForbidden)
		doc = e.page(e.client("publisher"), "/desk/proposals/"+id, http.StatusOK)
		if testCount(doc, "reject-form") != 1 || testCount(doc, "dismiss-form") != 1 {
			t.Error("the publisher is not offered reject and dismiss")
		}
		if testCount(doc, "approve-form") != 0 {
			t.Error("a publisher without the reviewer role is offered a vote")
		}
		e.refused(e.client("publisher"), p(id, "votes"), approve("1"), http.StatusForbidden)
	})

	t.Run("an editor cannot publish", func(t *testing.T) {
		pv, _, err := e.cmd.PreviewEdition(e.ctx, demoRanking, []string{demoValidated})
		if err != nil {
			t.Fatal(err)
		}
		c := e.client("editor")
		before := e.lastSeq()
		res, body := c.postJSON("/api/v1/rankings/"+demoRanking+"/editions",
			map[string]any{"proposals": []string{demoValidated}, "preview_hash": pv.Hash}, nil)
		if res.StatusCode != http.StatusForbidden || e.lastSeq() != before {
			t.Errorf("editor publishing: status %d, %d events appended; body %.200s", res.StatusCode, e.lastSeq()-before, body)
		}
		if testCount(e.page(c, "/desk/proposals/"+demoValidated, http.StatusOK), "reject-form") != 0 {
			t.Error("an editor is offered a publisher's decision")
		}
	})

	t.Run("a reviewer cannot revise or withdraw", func(t *testing.T) {
		c := e.client("reviewer2")
		doc := e.page(c, "/desk/proposals/"+demoInReview, http.StatusOK)
		if testCount(doc, "revise-form")+testCount(doc, "withdraw-form") != 0 {
			t.Error("a reviewer is offered revise or withdraw")
		}
		e.refused(c, p(demoInReview, "revise"), url.Values{"note": {"x"}}, http.StatusForbidden)
		e.refused(c, p(demoInReview, "withdraw"), url.Values{}, http.StatusForbidden)
	})
}
