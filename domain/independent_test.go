package domain_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// addTieredEvidence adds the evidence of addEvidence with tier.
func addTieredEvidence(tier domain.Tier) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) {
		return domain.DecideAddEvidence(w.prop("p1"), actor("alice"), domain.AddEvidence{Proposal: "p1",
			Claim: events.Text{En: "price cut"}, SourceURL: "https://acme.example/pricing", Excerpt: "now ¥5/h", ObservedOn: "2026-02-20",
			Tier: tier})
	}
}

func TestDecideAddEvidenceTier(t *testing.T) {
	given := cat(defined(), []given{opened("p1", "alice", "acme")})
	tiered := func(tier string) []domain.Change {
		c := evidenceAdded("e1", 1)
		c.Data.(*events.EvidenceAdded).Tier = tier
		return changes(c)
	}
	runDecide(t, []decideTest{
		{name: "vendor", given: given, when: addTieredEvidence(domain.TierVendor), want: tiered("vendor")},
		{name: "third party", given: given, when: addTieredEvidence(domain.TierThirdParty), want: tiered("third_party")},
		{name: "own measurement", given: given, when: addTieredEvidence(domain.TierOwn), want: tiered("own")},
		{name: "not stated", given: given, when: addTieredEvidence(""), want: tiered("")},
		{name: "unknown tier", given: given, when: addTieredEvidence("independent"), err: domain.ErrInvalid},
		{name: "tier in capitals", given: given, when: addTieredEvidence("VENDOR"), err: domain.ErrInvalid},
	})
	w := newWorld(t, given)
	_, err := addTieredEvidence("press")(w)
	var fe *domain.FieldError
	if !errors.As(err, &fe) || fe.Field != "tier" || fe.Code != "evidence.bad_tier" || fe.Args["tier"] != "press" {
		t.Errorf("error = %#v, want the field tier with code evidence.bad_tier", err)
	}
}

// TestEvidenceAddedWithoutTierKeepsItsBytes: an item with no tier encodes
// without one, as it did before tiers existed; a stored evidence_added.v2,
// with or without a tier, reads back (through the upcaster, its claim a
// string then) with its tier.
func TestEvidenceAddedWithoutTierKeepsItsBytes(t *testing.T) {
	b, err := json.Marshal(events.EvidenceAdded{EvidenceID: "e1", Revision: 1, Claim: events.Text{En: "c"}, Excerpt: "x", ObservedOn: "2026-02-20"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"evidence_id":"e1","revision":1,"claim":{"zh":"","en":"c"},"excerpt":"x","observed_on":"2026-02-20"}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	_, _, data, err := events.DecodeData("crossrank.proposal.evidence_added.v2",
		[]byte(`{"evidence_id":"e1","revision":1,"claim":"c","excerpt":"x","observed_on":"2026-02-20","tier":"own"}`))
	if err != nil {
		t.Fatal(err)
	}
	if back := data.(*events.EvidenceAdded); back.Tier != "own" || back.Claim != (events.Text{En: "c"}) {
		t.Errorf("decoded %+v, want tier own and the claim in English", back)
	}
}

// backingOf gives every score of the six entries the tiers of all, except
// where over says otherwise ("entry/criterion" → tiers).
func backingOf(all []domain.Tier, over map[string][]domain.Tier) domain.ScoreBacking {
	b := domain.ScoreBacking{}
	for slug, e := range sixEntries() {
		b[slug] = map[string][]domain.Tier{}
		for c := range e.Scores {
			b[slug][c] = all
			if t, ok := over[slug+"/"+c]; ok {
				b[slug][c] = t
			}
		}
	}
	return b
}

func TestIndependentSnapshot(t *testing.T) {
	vendor, third, own := domain.TierVendor, domain.TierThirdParty, domain.TierOwn
	order := func(s domain.IndependentSnapshot) []string {
		var out []string
		for _, e := range s.Snapshot.Entries {
			out = append(out, fmt.Sprintf("%s:%d", e.Slug, e.Total))
		}
		return out
	}
	tests := []struct {
		name string
		b    domain.ScoreBacking
		want []string
	}{
		// Everything independent: the published order (TestSnapshotGolden).
		{"all independent", backingOf([]domain.Tier{vendor, third}, nil),
			[]string{"acme:610", "dyna:600", "echo:600", "cora:590", "bolt:570", "fern:0"}},
		// acme's price (5·40) rests on the vendor only: 610−200 = 410.
		// cora's perf (3·35) on an unstated tier: 590−105 = 485.
		{"vendor-only and unstated scores drop", backingOf([]domain.Tier{own}, map[string][]domain.Tier{
			"acme/price": {vendor, vendor}, "cora/perf": {""}}),
			[]string{"dyna:600", "echo:600", "bolt:570", "cora:485", "acme:410", "fern:0"}},
		// No evidence at all behind a score counts as no independent one.
		{"no backing", domain.ScoreBacking{}, []string{"acme:0", "bolt:0", "cora:0", "dyna:0", "echo:0", "fern:0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := goldenWorld(t)
			before := domain.BuildSnapshot(w.ranking, w.edition).Hash()
			s := domain.BuildIndependentSnapshot(w.ranking, w.edition, tt.b)
			if got := order(s); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("order %v, want %v", got, tt.want)
			}
			if s.Basis != domain.IndependentBasis || !strings.HasPrefix(string(s.JSON()), `{"basis":"independent_evidence","snapshot":{`) {
				t.Errorf("JSON %s does not start with its basis", s.JSON()[:60])
			}
			if s.Hash() == before {
				t.Error("the independent view has the published snapshot's hash")
			}
			if after := domain.BuildSnapshot(w.ranking, w.edition).Hash(); after != before {
				t.Error("building the independent view changed the published edition")
			}
			if again := domain.BuildIndependentSnapshot(w.ranking, w.edition, tt.b).Hash(); again != s.Hash() {
				t.Errorf("hash %s then %s: not deterministic", s.Hash(), again)
			}
		})
	}
}

// TestIndependentSnapshotHashFollowsTiers: changing one score's only
// independent item to a vendor claim changes the hash; adding a vendor
// item beside an independent one does not.
func TestIndependentSnapshotHashFollowsTiers(t *testing.T) {
	w := goldenWorld(t)
	third := []domain.Tier{domain.TierThirdParty}
	ref := domain.BuildIndependentSnapshot(w.ranking, w.edition, backingOf(third, nil)).Hash()
	demoted := backingOf(third, map[string][]domain.Tier{"bolt/support": {domain.TierVendor}})
	if domain.BuildIndependentSnapshot(w.ranking, w.edition, demoted).Hash() == ref {
		t.Error("dropping bolt's support score left the hash unchanged")
	}
	extra := backingOf(third, map[string][]domain.Tier{"bolt/support": {domain.TierVendor, domain.TierThirdParty}})
	if domain.BuildIndependentSnapshot(w.ranking, w.edition, extra).Hash() != ref {
		t.Error("a vendor item beside an independent one changed the hash")
	}
}
