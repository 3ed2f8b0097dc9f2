package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestAPIQuorumFloorRefusedInBothLanguages: a methodology whose quorum
// policy is below the floor (one approval, or evidence verification off)
// is refused, naming the field, in English and in Chinese; nothing is stored.
func TestAPIQuorumFloorRefusedInBothLanguages(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	ed := e.Client("ed")
	for _, tc := range []struct {
		name, field, en, zh string
		policy              events.QuorumPolicy
	}{
		{"one approval", "methodology.quorum.min_approvals", "2–10", "2–10 之间", events.QuorumPolicy{MinApprovals: 1, RequireEvidenceVerified: true}},
		{"verification off", "methodology.quorum.require_evidence_verified", "must stay on", "必须开启", events.QuorumPolicy{MinApprovals: 2}},
	} {
		m := webtest.LaptopMethodology()
		m.Quorum = tc.policy
		body := map[string]any{"kind": "methodology", "ranking": webtest.NewRanking, "new_ranking": true,
			"title": "Define laptops", "methodology": m, "rationale": "why"}
		for lang, want := range map[string]string{"en": tc.en, "zh-CN": tc.zh} {
			before := e.LastSeq()
			res, raw := ed.PostJSON("/api/v1/proposals", body, http.Header{"Accept-Language": {lang}})
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("%s (%s): status %d, want 422; %.300s", tc.name, lang, res.StatusCode, raw)
			}
			p := webtest.DecodeProblem(t, res, raw)
			if len(p.Errors) != 1 || p.Errors[0].Field != tc.field || !strings.Contains(p.Errors[0].Message, want) {
				t.Errorf("%s (%s): errors %+v, want %s with %q", tc.name, lang, p.Errors, tc.field, want)
			}
			if after := e.LastSeq(); after != before {
				t.Errorf("%s (%s): stored events %d → %d, want nothing", tc.name, lang, before, after)
			}
		}
	}
}

// TestQuorumNamesRevokedApproval: once an approver of a cross-validated
// proposal loses the reviewer role, the API's quorum object and the desk
// name the dropped approval, and publishing it is refused.
func TestQuorumNamesRevokedApproval(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	pat := e.Client("pat")
	before := e.proposal(pat, webtest.DemoReady)
	if !before.Quorum.Met || len(before.Quorum.Approvers) < 2 {
		t.Fatalf("the demo's ready proposal: quorum %+v, want met", before.Quorum)
	}
	voter := before.Quorum.Approvers[0]
	if _, err := e.Cmd.RevokeRole(e.Ctx, domain.System(), domain.RevokeRole{User: voter, Role: domain.RoleReviewer}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	after := e.proposal(pat, webtest.DemoReady)
	if after.Quorum.Met || !slices.Equal(after.Quorum.Revoked, []string{voter}) || slices.Contains(after.Quorum.Approvers, voter) {
		t.Errorf("quorum after revoking %s: %+v, want not met, %s named as revoked", voter, after.Quorum, voter)
	}
	for lang, want := range map[string]string{"en": "reviewer role revoked", "zh-CN": "审核人角色已撤销"} {
		res, page := pat.Do(http.MethodGet, "/desk/proposals/"+webtest.DemoReady, nil, http.Header{"Accept-Language": {lang}})
		if res.StatusCode != http.StatusOK || !strings.Contains(page, voter) || !strings.Contains(page, want) {
			t.Errorf("the desk's proposal page (%s): status %d, want %s named with %q", lang, res.StatusCode, voter, want)
		}
	}
	res, raw := pat.PostJSON("/api/v1/rankings/"+before.Ranking+"/editions/preview", map[string]any{"proposals": []string{webtest.DemoReady}}, nil)
	if res.StatusCode != http.StatusConflict {
		t.Errorf("preview after the revocation: status %d, want 409; %.300s", res.StatusCode, raw)
	}
}
