package api_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestBatchVotes: 500 votes in one call on a 2,000-proposal import (750
// under -race) each
// become their proposal's own vote event, naming exactly the evidence
// sent; a stale revision fails that item with 409 and the author's own
// proposals with 403, while the rest stand; the same Idempotency-Key
// answers the same results and stores nothing; 501 votes are refused as
// a whole (422 naming votes); the read models verify afterwards.
func TestBatchVotes(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("full run only: casts 2,000 votes; go test -short skips it")
	}
	e := newDemoEnv(t)
	n := 2000
	if raceEnabled {
		n = 750 // the same 500 votes and refusals on a smaller import
	}
	_, ids := e.BulkImport(webtest.BatchRanking, webtest.AuthorOf, n, webtest.LaptopMethodology(), webtest.EvidenceOf)
	eve := e.Client("eve")

	votes := make([]command.BatchVote, 500)
	for i := range votes {
		votes[i] = command.BatchVote{Proposal: ids[i], Revision: 1, Verdict: "approve", VerifiedEvidence: webtest.ImportedEvidence(webtest.EvidenceOf(i))}
	}
	const stale, partial = 17, 20 // partial has three evidence items
	votes[stale].Revision = 2
	votes[partial].VerifiedEvidence = []string{"e2"}
	want := map[int]struct {
		status int
		code   string
	}{0: {403, "proposal.self_approval"}, 250: {403, "proposal.self_approval"}, stale: {409, "proposal.stale_revision"}}

	before := e.LastSeq()
	key := http.Header{"Idempotency-Key": {"review-batch-1"}}
	var first command.VotesAnswer
	res, body := eve.PostJSON("/api/v1/votes", map[string]any{"votes": votes}, key)
	if res.StatusCode != http.StatusMultiStatus { // three votes are refused
		t.Fatalf("batch: status %d, want 207; %.500s", res.StatusCode, body)
	}
	webtest.DecodeJSON(t, body, &first)
	if len(first.Results) != len(votes) {
		t.Fatalf("%d results for %d votes", len(first.Results), len(votes))
	}
	stored := 0
	for i, r := range first.Results {
		w, refused := want[i]
		switch {
		case r.Proposal != ids[i]:
			t.Fatalf("result %d is for %s, want %s", i, r.Proposal, ids[i])
		case refused && (r.Status != w.status || r.Code != w.code || r.Message == ""):
			t.Errorf("vote %d: %d %q %q, want %d %q with a message", i, r.Status, r.Code, r.Message, w.status, w.code)
		case !refused && (r.Status != http.StatusCreated || r.Code != "" || r.Sequence == 0):
			t.Errorf("vote %d: %d %q seq %d, want 201", i, r.Status, r.Code, r.Sequence)
		case !refused:
			stored++
		}
	}
	if got := e.LastSeq() - before; got != uint64(stored) {
		t.Errorf("%d votes stored as %d events, want one event each", stored, got)
	}

	// Each vote is the proposal's own, on its revision, with exactly the
	// evidence sent: a partial approval verifies only what it names.
	var p api.Proposal
	webtest.APIJSON(t, eve, http.MethodGet, "/api/v1/proposals/"+ids[partial], nil, http.StatusOK, &p)
	if len(p.Votes) != 1 || p.Votes[0].Voter != "eve" || p.Votes[0].Revision != 1 || !slices.Equal(p.Votes[0].VerifiedEvidence, []string{"e2"}) {
		t.Errorf("partial vote: %+v, want eve's approval of revision 1 verifying e2", p.Votes)
	}
	if !slices.Equal(p.Quorum.Unverified, []string{"e1", "e3"}) {
		t.Errorf("partial vote: unverified %v, want [e1 e3]", p.Quorum.Unverified)
	}
	webtest.APIJSON(t, eve, http.MethodGet, "/api/v1/proposals/"+ids[stale], nil, http.StatusOK, &p)
	if len(p.Votes) != 0 {
		t.Errorf("the stale vote was stored: %+v", p.Votes)
	}

	// A retry of the batch stores nothing and answers the same.
	mid := e.LastSeq()
	var again command.VotesAnswer
	res, body = eve.PostJSON("/api/v1/votes", map[string]any{"votes": votes}, key)
	if res.StatusCode != http.StatusMultiStatus {
		t.Fatalf("retry: status %d, want 207; %.500s", res.StatusCode, body)
	}
	webtest.DecodeJSON(t, body, &again)
	if e.LastSeq() != mid {
		t.Errorf("the retry stored %d events", e.LastSeq()-mid)
	}
	if again.Command != first.Command {
		t.Errorf("retry command %s, first %s", again.Command, first.Command)
	}
	for i := range first.Results {
		a, b := first.Results[i], again.Results[i]
		if b.Status == http.StatusCreated && !b.Replayed {
			t.Fatalf("retry of vote %d was not a replay: %+v", i, b)
		}
		b.Replayed = false
		if a != b {
			t.Fatalf("retry of vote %d: %+v, first %+v", i, b, a)
		}
	}

	// 501 votes: refused whole, naming the field.
	over := append(slices.Clone(votes), command.BatchVote{Proposal: ids[600], Revision: 1, Verdict: "approve"})
	res, body = eve.PostJSON("/api/v1/votes", map[string]any{"votes": over}, nil)
	if pr := webtest.DecodeProblem(t, res, body); res.StatusCode != http.StatusUnprocessableEntity ||
		len(pr.Errors) != 1 || pr.Errors[0].Field != "votes" || pr.Errors[0].Code != "field.too_many" {
		t.Errorf("501 votes: %d %+v, want 422 naming votes", res.StatusCode, pr)
	}
	if e.LastSeq() != mid {
		t.Errorf("the refused batch stored %d events", e.LastSeq()-mid)
	}
	// Signed out: 401, nothing stored.
	res, _ = e.Client("").PostJSON("/api/v1/votes", map[string]any{"votes": votes[:1]}, nil)
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("signed out: %d, want 401", res.StatusCode)
	}

	e.CaughtUp()
	if _, err := projections.Verify(e.Ctx, e.Store, e.Read.DB()); err != nil {
		t.Errorf("verify after the batch: %v", err)
	}
}
