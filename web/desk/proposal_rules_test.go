package desk_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestProposalRoleRules checks each role rule twice: the page offers no
// form the user may not use, and a hand-made post is refused with the
// right status and appends nothing.
func TestProposalRoleRules(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	p := func(id, action string) string { return "/desk/proposals/" + id + "/" + action }
	evidence := url.Values{"claim": {"c"}, "source_name": {"s"}, "excerpt": {"x"}, "observed_on": {"2026-01-01"}}
	approve := func(rev string) url.Values {
		return url.Values{"verdict": {"approve"}, "revision": {rev}, "verified_evidence": {"e1"}}
	}

	t.Run("a reviewer cannot edit someone's draft", func(t *testing.T) {
		c := e.Client("reviewer1")
		doc := e.Page(c, "/desk/proposals/"+webtest.DemoDraft, http.StatusOK)
		for _, tid := range []string{"editor", "evidence-form", "score-form", "submit-form", "approve-form", "revise-form", "withdraw-form"} {
			if webtest.TestCount(doc, tid) != 0 {
				t.Errorf("reviewer sees %s on the editor's draft", tid)
			}
		}
		e.Refused(c, p(webtest.DemoDraft, "evidence"), evidence, http.StatusForbidden)
		e.Refused(c, p(webtest.DemoDraft, "changes"), url.Values{"criterion": {demo.CritCluster}, "to": {"5"}, "rationale": {"r"}, "evidence": {"e1"}}, http.StatusForbidden)
		e.Refused(c, p(webtest.DemoDraft, "changes/remove"), url.Values{"target": {"score:" + demo.CritCluster}}, http.StatusForbidden)
		doc = e.Refused(c, p(webtest.DemoDraft, "submit"), url.Values{}, http.StatusForbidden)
		if webtest.TestText(doc, "form-error") != "Your account does not hold the role this action needs." {
			t.Errorf("message %q", webtest.TestText(doc, "form-error"))
		}
	})

	t.Run("another editor cannot edit the draft", func(t *testing.T) {
		c := e.Client("eve")
		if webtest.TestCount(e.Page(c, "/desk/proposals/"+webtest.DemoDraft, http.StatusOK), "editor") != 0 {
			t.Error("eve sees the editor's draft forms")
		}
		doc := e.Refused(c, p(webtest.DemoDraft, "evidence"), evidence, http.StatusForbidden)
		if webtest.TestText(doc, "form-error") != "Only the author or a reviser may change this proposal." {
			t.Errorf("message %q", webtest.TestText(doc, "form-error"))
		}
	})

	t.Run("an editor who reviews cannot vote on their own proposal", func(t *testing.T) {
		c := e.Client("eve")
		id := e.Reviewable(c, "ppio", demo.CritGraphics, 9)
		doc := e.Page(c, "/desk/proposals/"+id, http.StatusOK)
		if webtest.TestCount(doc, "approve-form")+webtest.TestCount(doc, "reject-vote-form") != 0 {
			t.Error("eve is offered a vote on her own proposal")
		}
		doc = e.Refused(c, p(id, "votes"), approve("1"), http.StatusForbidden)
		if webtest.TestText(doc, "form-error") != "The author or a reviser of a proposal cannot vote on it." {
			t.Errorf("message %q", webtest.TestText(doc, "form-error"))
		}
		if webtest.TestCount(e.Page(e.Client("reviewer1"), "/desk/proposals/"+id, http.StatusOK), "approve-form") != 1 {
			t.Error("another reviewer is not offered the vote")
		}
	})

	t.Run("an editor who publishes cannot reject or dismiss on their own proposal", func(t *testing.T) {
		c := e.Client("max")
		id := e.Reviewable(c, "volcengine", demo.CritGraphics, 8)
		e.MustPost(e.Client("reviewer1"), id, "votes", url.Values{"verdict": {"reject"}, "revision": {"1"}, "comment": {"No source"}})
		doc := e.Page(c, "/desk/proposals/"+id, http.StatusOK)
		if webtest.TestCount(doc, "reject-form")+webtest.TestCount(doc, "dismiss-form") != 0 {
			t.Error("max is offered to reject or dismiss on his own proposal")
		}
		e.Refused(c, p(id, "reject"), url.Values{"reason": {"mine"}}, http.StatusForbidden)
		e.Refused(c, p(id, "dismiss-veto"), url.Values{"voter": {"reviewer1"}, "reason": {"mine"}}, http.StatusForbidden)
		doc = e.Page(e.Client("publisher"), "/desk/proposals/"+id, http.StatusOK)
		if webtest.TestCount(doc, "reject-form") != 1 || webtest.TestCount(doc, "dismiss-form") != 1 {
			t.Error("the publisher is not offered reject and dismiss")
		}
		if webtest.TestCount(doc, "approve-form") != 0 {
			t.Error("a publisher without the reviewer role is offered a vote")
		}
		e.Refused(e.Client("publisher"), p(id, "votes"), approve("1"), http.StatusForbidden)
	})

	t.Run("an editor cannot publish", func(t *testing.T) {
		pv, _, err := e.Cmd.PreviewEdition(e.Ctx, webtest.DemoRanking, []string{webtest.DemoValidated})
		if err != nil {
			t.Fatal(err)
		}
		c := e.Client("editor")
		before := e.LastSeq()
		res, body := c.PostJSON("/api/v1/rankings/"+webtest.DemoRanking+"/editions",
			map[string]any{"proposals": []string{webtest.DemoValidated}, "preview_hash": pv.Hash}, nil)
		if res.StatusCode != http.StatusForbidden || e.LastSeq() != before {
			t.Errorf("editor publishing: status %d, %d events appended; body %.200s", res.StatusCode, e.LastSeq()-before, body)
		}
		if webtest.TestCount(e.Page(c, "/desk/proposals/"+webtest.DemoValidated, http.StatusOK), "reject-form") != 0 {
			t.Error("an editor is offered a publisher's decision")
		}
	})

	t.Run("a reviewer cannot revise or withdraw", func(t *testing.T) {
		c := e.Client("reviewer2")
		doc := e.Page(c, "/desk/proposals/"+webtest.DemoInReview, http.StatusOK)
		if webtest.TestCount(doc, "revise-form")+webtest.TestCount(doc, "withdraw-form") != 0 {
			t.Error("a reviewer is offered revise or withdraw")
		}
		e.Refused(c, p(webtest.DemoInReview, "revise"), url.Values{"note": {"x"}}, http.StatusForbidden)
		e.Refused(c, p(webtest.DemoInReview, "withdraw"), url.Values{}, http.StatusForbidden)
	})
}
