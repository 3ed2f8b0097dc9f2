package bundle_test

import (
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
)

// TestBundleDropsTokenLabels: an edition proposed, reviewed and published
// through API tokens gives a bundle whose events say a token was the door
// ("authvia":"token") and keep who acted, but carry neither the tokens'
// ids nor the labels their users gave them; the bundle verifies.
func TestBundleDropsTokenLabels(t *testing.T) {
	ctx := testContext(t)
	store := jstest.Start(t).Store
	h := handler.New(store, nil)
	fakeHash := func(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }
	if _, err := demo.Seed(ctx, h, demo.Options{Password: "pw", HashPassword: fakeHash, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	ed, err := h.Edition(ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	via := func(name string, roles ...string) domain.Actor {
		return domain.Actor{Name: name, Roles: roles,
			Via: events.Via{Method: events.ViaToken, TokenID: "tok-id-" + name, TokenName: "secret-label-xyz " + name}}
	}
	editor, pub := via("editor", domain.RoleEditor), via("publisher", domain.RolePublisher)
	do := func(_ handler.Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	const id, entry, crit = "token-p2", "ppio", demo.CritCluster
	do(h.OpenProposal(ctx, editor, domain.OpenProposal{ID: id, Ranking: demo.RankingSlug, Entry: entry, Title: "Cluster networking"}))
	do(h.AddEvidence(ctx, editor, domain.AddEvidence{Proposal: id, Claim: events.Text{En: "Offers RDMA clusters"}, SourceName: "Market overview",
		Excerpt: "RDMA clusters", ObservedOn: time.Now().Format(time.DateOnly)}))
	do(h.ProposeScore(ctx, editor, domain.ProposeScore{Proposal: id, Criterion: crit, To: (ed.Entries[entry].Scores[crit] + 1) % 11,
		Rationale: events.Text{En: "The overview says so."}, Evidence: []string{"e1"}}))
	do(h.Submit(ctx, editor, domain.Submit{Proposal: id}))
	for _, r := range []string{"reviewer1", "reviewer2"} {
		do(h.CastVote(ctx, via(r, domain.RoleReviewer), domain.CastVote{Proposal: id, Revision: 1,
			Verdict: events.Approve, VerifiedEvidence: []string{"e1"}}))
	}
	ids := []string{id}
	pv, _, err := h.PreviewEdition(ctx, demo.RankingSlug, ids)
	if err != nil {
		t.Fatal(err)
	}
	do(h.Publish(ctx, pub, domain.PublishEdition{Ranking: demo.RankingSlug, Proposals: ids, PreviewHash: pv.Hash}))

	z := write(t, store, newKey(1), demo.RankingSlug, 2)
	if _, err := verify(z, bundle.Options{}); err != nil {
		t.Fatalf("the bundle does not verify: %v", err)
	}
	for _, name := range []string{bundle.EventsFile, bundle.EvidenceFile} {
		body := string(read(t, z, name))
		if strings.Contains(body, "secret-label-xyz") || strings.Contains(body, "tok-id-") {
			t.Errorf("%s carries a token's id or label:\n%s", name, body)
		}
	}
	events := string(read(t, z, bundle.EventsFile))
	if !strings.Contains(events, `"actor":"publisher"`) || !strings.Contains(events, `"authvia":"token"`) {
		t.Errorf("%s keeps no byline or no door:\n%s", bundle.EventsFile, events)
	}
	if evidence := string(read(t, z, bundle.EvidenceFile)); !strings.Contains(evidence, `"actor":"editor"`) || !strings.Contains(evidence, `"authvia":"token"`) {
		t.Errorf("%s keeps no byline or no door:\n%s", bundle.EvidenceFile, evidence)
	}
}
