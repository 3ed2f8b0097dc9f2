package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestRevokedApprovalIsNotReady (issue 41 item 5): once an approver of a
// cross-validated proposal loses the reviewer role, the proposal is in
// review with one approval wherever it is read — GET /api/v1/proposals/{id},
// the list, ?status=cross_validated, the publish page's candidates — as a
// publish would judge it; the role given back makes it ready again, and a
// conflict the approver declares since takes it out again.
func TestRevokedApprovalIsNotReady(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	pat := e.Client("pat")
	const id = webtest.DemoValidated
	one := func() api.Proposal {
		t.Helper()
		res, raw := pat.Do(http.MethodGet, "/api/v1/proposals/"+id, nil, nil)
		var p api.Proposal
		if err := json.Unmarshal([]byte(raw), &p); res.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("proposal: %d %.300s (%v)", res.StatusCode, raw, err)
		}
		return p
	}
	listed := func(status domain.Status) (api.Proposal, bool) {
		t.Helper()
		target := "/api/v1/proposals?ranking=" + webtest.DemoRanking + "&limit=200"
		if status != "" {
			target += "&status=" + string(status)
		}
		res, raw := pat.Do(http.MethodGet, target, nil, nil)
		var l api.ProposalList
		if err := json.Unmarshal([]byte(raw), &l); res.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("list: %d %.300s (%v)", res.StatusCode, raw, err)
		}
		i := slices.IndexFunc(l.Proposals, func(p api.Proposal) bool { return p.ID == id })
		if i < 0 {
			return api.Proposal{}, false
		}
		return l.Proposals[i], true
	}
	candidate := func() bool {
		doc := e.Get(pat, "/desk/publish", http.StatusOK)
		return webtest.ByTestID(doc, "candidate-"+id).Length() == 1
	}
	check := func(when string, want domain.Status, approvers int) {
		t.Helper()
		if p := one(); p.Status != want || len(p.Quorum.Approvers) != approvers || p.Quorum.Met != (want == domain.StatusCrossValidated) {
			t.Errorf("%s: GET status %s, approvers %v, met %v; want %s with %d approvals", when, p.Status, p.Quorum.Approvers, p.Quorum.Met, want, approvers)
		}
		if p, ok := listed(""); !ok || p.Status != want || len(p.Quorum.Approvers) != approvers {
			t.Errorf("%s: listed %v, status %s, approvers %v; want %s with %d approvals", when, ok, p.Status, p.Quorum.Approvers, want, approvers)
		}
		for _, st := range []domain.Status{domain.StatusCrossValidated, domain.StatusInReview} {
			if _, ok := listed(st); ok != (st == want) {
				t.Errorf("%s: listed under ?status=%s: %v, want %v", when, st, ok, st == want)
			}
		}
		if got := candidate(); got != (want == domain.StatusCrossValidated) {
			t.Errorf("%s: a candidate on /desk/publish: %v, want %v", when, got, !got)
		}
	}

	before := one()
	if before.Status != domain.StatusCrossValidated || len(before.Quorum.Approvers) != 2 {
		t.Fatalf("the demo's cross-validated proposal: status %s, approvers %v", before.Status, before.Quorum.Approvers)
	}
	check("before", domain.StatusCrossValidated, 2)
	voter := before.Quorum.Approvers[0]
	if _, err := e.Cmd.RevokeRole(e.Ctx, domain.System(), domain.RevokeRole{User: voter, Role: domain.RoleReviewer}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	check("reviewer role revoked from "+voter, domain.StatusInReview, 1)
	if p := one(); !slices.Equal(p.Quorum.Revoked, []string{voter}) {
		t.Errorf("revoked approvals %v, want [%s]", p.Quorum.Revoked, voter)
	}
	if _, err := e.Cmd.GrantRole(e.Ctx, domain.System(), domain.GrantRole{User: voter, Role: domain.RoleReviewer}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	check("reviewer role given back", domain.StatusCrossValidated, 2)

	// A conflict of interest declared since takes the approval out the same way.
	reviewer := domain.Actor{Name: voter, Roles: []string{domain.RoleReviewer}}
	if _, err := e.Cmd.DeclareConflict(e.Ctx, reviewer, domain.DeclareConflict{Ranking: webtest.DemoRanking, Reason: "advises a vendor"}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	check("conflict declared by "+voter, domain.StatusInReview, 1)
}
