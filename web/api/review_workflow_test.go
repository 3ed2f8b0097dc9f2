package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/webtest"
)

// inReview returns the demo's proposal in review (huawei-cloud's).
func (e *adminEnv) inReview() api.Proposal {
	e.T.Helper()
	page, err := e.Read.ProposalIDs(e.Ctx, projections.ProposalFilter{Ranking: demo.RankingSlug, Status: string(domain.StatusInReview)})
	if err != nil || len(page.IDs) == 0 {
		e.T.Fatalf("proposals in review: %v %v", page, err)
	}
	return e.proposal(e.Client("ed"), page.IDs[0])
}

func (e *adminEnv) proposal(c *webtest.Client, id string) api.Proposal {
	e.T.Helper()
	res, body := c.Do(http.MethodGet, "/api/v1/proposals/"+id, nil, nil)
	var p api.Proposal
	if err := json.Unmarshal([]byte(body), &p); err != nil || res.StatusCode != http.StatusOK {
		e.T.Fatalf("GET proposal %s: %d %v %s", id, res.StatusCode, err, body)
	}
	return p
}

// refuses posts body as c and checks the status, and that nothing was stored.
func (e *adminEnv) refuses(c *webtest.Client, target string, body any, status int) httpx.Problem {
	e.T.Helper()
	before := e.LastSeq()
	res, got := c.PostJSON(target, body, nil)
	if res.StatusCode != status {
		e.T.Fatalf("POST %s: status %d, want %d; body %s", target, res.StatusCode, status, got)
	}
	if after := e.LastSeq(); after != before {
		e.T.Errorf("POST %s stored %d events", target, after-before)
	}
	return webtest.DecodeProblem(e.T, res, got)
}

func TestAPIReviewersCommentsAndAttention(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	ed, rev := e.Client("ed"), e.Client("rev")
	p := e.inReview()
	base := "/api/v1/proposals/" + p.ID

	prob := e.refuses(ed, base+"/reviewers", map[string]any{"reviewers": []string{"rex", "pat"}}, http.StatusUnprocessableEntity)
	if len(prob.Errors) != 1 || prob.Errors[0].Field != "reviewers[1]" || prob.Errors[0].Code != "reviewers.not_reviewer" {
		t.Errorf("a reviewer without the role: %+v, want reviewers[1] reviewers.not_reviewer", prob.Errors)
	}
	e.refuses(ed, "/api/v1/proposals/0190aaaa-0000-7000-8000-000000000000/comments", map[string]any{"body": "hello"}, http.StatusNotFound)

	if res, body := ed.PostJSON(base+"/reviewers", map[string]any{"reviewers": []string{"rev", "rex"}}, nil); res.StatusCode != http.StatusOK {
		t.Fatalf("request reviewers: %d %s", res.StatusCode, body)
	}
	got := e.proposal(rev, p.ID)
	if strings.Join(got.RequestedReviewers, ",") != "rev,rex" || strings.Join(got.Attention, ",") != "rev,rex" {
		t.Errorf("requested %v, attention %v; want rev and rex both", got.RequestedReviewers, got.Attention)
	}

	res, body := rev.PostJSON(base+"/comments", map[string]any{"body": "Which plan does the price cite?"}, nil)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("comment: %d %s", res.StatusCode, body)
	}
	var cr command.Response
	if err := json.Unmarshal([]byte(body), &cr); err != nil || cr.ID != "c1" {
		t.Fatalf("comment answer %s: id %q, want c1 (%v)", body, cr.ID, err)
	}
	got = e.proposal(rev, p.ID)
	if len(got.Comments) != 1 || got.Comments[0].Author != "rev" || got.Comments[0].Resolved ||
		!strings.Contains(strings.Join(got.Attention, ","), p.Author) || len(got.Quorum.OpenComments) != 1 {
		t.Errorf("after the comment: comments %+v, attention %v, open %v", got.Comments, got.Attention, got.Quorum.OpenComments)
	}
	if res, body := rev.PostJSON(base+"/comments", map[string]any{"reply_to": "c1", "on": "evidence:nope", "body": "?"}, nil); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("comment on a missing evidence item: %d %s", res.StatusCode, body)
	}

	e.refuses(e.Client("rex"), base+"/comments/c1/resolve", map[string]any{}, http.StatusForbidden)
	if res, body := rev.PostJSON(base+"/comments/c1/resolve", map[string]any{}, nil); res.StatusCode != http.StatusOK {
		t.Fatalf("resolve: %d %s", res.StatusCode, body)
	}
	got = e.proposal(rev, p.ID)
	if !got.Comments[0].Resolved || got.Comments[0].ResolvedBy != "rev" || len(got.Quorum.OpenComments) != 0 {
		t.Errorf("after resolving: %+v, open %v", got.Comments, got.Quorum.OpenComments)
	}
}

func TestAPIConflictsOfInterest(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	rev, rex, ed := e.Client("rev"), e.Client("rex"), e.Client("ed")
	p := e.inReview()
	entryPath := "/api/v1/rankings/" + demo.RankingSlug + "/entries/" + p.Entry + "/conflicts"

	e.refuses(rex, entryPath, map[string]any{"user": "rev", "reason": "rev consults for them"}, http.StatusForbidden)
	e.refuses(ed, entryPath, map[string]any{"reason": "editors are not reviewers"}, http.StatusForbidden)
	e.refuses(rev, "/api/v1/rankings/"+demo.RankingSlug+"/entries/no-such-entry/conflicts", map[string]any{"reason": "x"}, http.StatusNotFound)

	if res, body := rev.PostJSON(entryPath, map[string]any{"user": "rev", "reason": "I worked there until 2025"}, nil); res.StatusCode != http.StatusCreated {
		t.Fatalf("declare: %d %s", res.StatusCode, body)
	}
	if res, body := rex.PostJSON("/api/v1/rankings/"+demo.RankingSlug+"/conflicts", map[string]any{"reason": "I hold shares in several"}, nil); res.StatusCode != http.StatusCreated {
		t.Fatalf("declare on the ranking: %d %s", res.StatusCode, body)
	}
	e.CaughtUp()
	res, body := e.Client("").Do(http.MethodGet, "/api/v1/rankings/"+demo.RankingSlug+"/conflicts", nil, nil)
	var l api.ConflictList
	if err := json.Unmarshal([]byte(body), &l); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("public list: %d %v %s", res.StatusCode, err, body)
	}
	want := []api.Conflict{{User: "rev", Entry: p.Entry, Reason: "I worked there until 2025"}, {User: "rex", Reason: "I hold shares in several"}}
	if len(l.Conflicts) != len(want) {
		t.Fatalf("conflicts %+v, want %+v", l.Conflicts, want)
	}
	for i, c := range l.Conflicts {
		if c.User != want[i].User || c.Entry != want[i].Entry || c.Reason != want[i].Reason || c.At == "" {
			t.Errorf("conflict %d = %+v, want %+v", i, c, want[i])
		}
	}
	// The declared reviewer's approval does not count.
	if res, body := rev.PostJSON("/api/v1/proposals/"+p.ID+"/votes", map[string]any{"verdict": "approve",
		"revision": p.Revision, "verified_evidence": evidenceIDs(p)}, nil); res.StatusCode != http.StatusCreated {
		t.Fatalf("vote: %d %s", res.StatusCode, body)
	}
	got := e.proposal(rev, p.ID)
	if _, ok := got.Quorum.Conflicted["rev"]; !ok {
		t.Errorf("quorum after rev's approval: %+v, want rev conflicted", got.Quorum)
	}
}

func evidenceIDs(p api.Proposal) []string {
	var ids []string
	for _, ev := range p.Evidence {
		ids = append(ids, ev.EvidenceID)
	}
	return ids
}
