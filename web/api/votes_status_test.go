package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestAPIVotesStatus: a batch whose votes were all stored answers 200; a
// batch with any vote refused answers 207 Multi-Status, however many
// failed (all of them here), so a client reading only the status never
// takes refusals for success. Each item keeps its own status.
func TestAPIVotesStatus(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	r2 := e.Client("reviewer2")
	res, raw := r2.Do(http.MethodGet, "/api/v1/proposals/"+webtest.DemoInReview, nil, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("proposal: %d %.300s", res.StatusCode, raw)
	}
	var p api.Proposal
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	var verified []string
	for _, ev := range p.Evidence {
		verified = append(verified, ev.EvidenceID)
	}
	batch := func(votes ...command.BatchVote) (int, command.VotesAnswer) {
		t.Helper()
		res, raw := r2.PostJSON("/api/v1/votes", map[string]any{"votes": votes}, nil)
		var a command.VotesAnswer
		if err := json.Unmarshal([]byte(raw), &a); err != nil {
			t.Fatalf("votes: %d %.300s: %v", res.StatusCode, raw, err)
		}
		if len(a.Results) != len(votes) {
			t.Fatalf("%d results for %d votes", len(a.Results), len(votes))
		}
		return res.StatusCode, a
	}

	status, a := batch(command.BatchVote{Proposal: p.ID, Revision: p.Revision, Verdict: "approve", VerifiedEvidence: verified})
	if status != http.StatusOK || a.Results[0].Status != http.StatusCreated {
		t.Errorf("every vote stored: status %d, item %+v; want 200 with the item 201", status, a.Results[0])
	}
	status, a = batch(command.BatchVote{Proposal: p.ID, Revision: p.Revision + 1, Verdict: "approve", VerifiedEvidence: verified},
		command.BatchVote{Proposal: "not-a-proposal", Revision: 1, Verdict: "approve"})
	if status != http.StatusMultiStatus {
		t.Errorf("every vote refused: status %d, want 207", status)
	}
	for i, r := range a.Results {
		if r.Status < 400 || r.Code == "" {
			t.Errorf("refused vote %d: %+v, want a 4xx status with its code", i, r)
		}
	}
}
