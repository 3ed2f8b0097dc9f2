package domain_test

import (
	"errors"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// TestDecidePublishPreviewHolds: what leaves the edition as it was — a
// capture of a chosen proposal's source, a comment, another approval, work
// on a proposal the edition does not hold — leaves its preview's hash as it
// was, and the publish goes through. The hash pinned the stream's
// position: each of these refused it (409).
func TestDecidePublishPreviewHolds(t *testing.T) {
	tests := []struct {
		name   string
		change func(w *world)
	}{
		{"a capture of a chosen proposal's source", func(w *world) {
			w.apply("capture", domain.ProposalID("p1"), &events.EvidenceCaptured{EvidenceID: "e1", URL: "https://example.com/a",
				FinalURL: "https://example.com/a", Status: 200, ContentType: "text/html", Size: 10,
				SHA256: "0000000000000000000000000000000000000000000000000000000000000000", FetchedAt: "2026-01-01T00:00:00Z"})
		}},
		{"a comment on a chosen proposal", func(w *world) {
			w.apply("rosa", domain.ProposalID("p1"), &events.CommentAdded{CommentID: "c1", Revision: 1, Body: "checked the source"})
		}},
		{"a third approval of a chosen proposal", func(w *world) {
			w.apply("rosa", domain.ProposalID("p1"), &events.VoteCast{Revision: 1, Verdict: approve, VerifiedEvidence: []string{"e1"}})
		}},
		{"a proposal the edition does not hold", func(w *world) {
			for _, g := range crossValidatedOn("p3", "bob", "acme", "support", nil, 4) {
				w.apply(g.actor, g.agg, g.data)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, p1Validated())
			pv, err := domain.Preview(w.ranking, w.edition, []*domain.Proposal{w.prop("p1")}, nil)
			if err != nil {
				t.Fatal(err)
			}
			tt.change(w)
			chosen := []*domain.Proposal{w.prop("p1")}
			again, err := domain.Preview(w.ranking, w.edition, chosen, nil)
			if err != nil {
				t.Fatal(err)
			}
			if again.Hash != pv.Hash {
				t.Errorf("the preview's hash moved: %s → %s", pv.Hash, again.Hash)
			}
			out, err := domain.DecidePublish(w.ranking, w.edition, chosen, nil, nil, actor("pat"),
				domain.PublishEdition{Ranking: rk, Proposals: []string{"p1"}, PreviewHash: pv.Hash, Previewed: &pv.Pins})
			if err != nil || len(out) == 0 {
				t.Errorf("publish with the earlier preview: %d events, %v; want the edition", len(out), err)
			}
		})
	}
}

// TestDecidePublishNamesTheChange: a publish that knows what its preview
// pinned names the first thing that no longer holds, with the code and
// arguments the catalogs word; a proposal short of its quorum is named too.
func TestDecidePublishNamesTheChange(t *testing.T) {
	revisedAgain := []given{revised("p1", "alice", 2), submitted("p1", "alice", 2),
		voted("p1", "rita", 2, approve, "e1", "e2"), voted("p1", "ravi", 2, approve, "e1", "e2"), validated("p1", 2, "ravi", "rita")}
	tests := []struct {
		name   string
		change []given
		chosen []string
		code   string
		args   domain.Args
	}{
		{name: "revised and cross-validated again", change: revisedAgain, chosen: []string{"p1"},
			code: "edition.changed_revised", args: domain.Args{"proposal": "p1", "from": 1, "to": 2}},
		{name: "revised, a draft now", change: []given{revised("p1", "alice", 2)}, chosen: []string{"p1"},
			code: "edition.changed_revised", args: domain.Args{"proposal": "p1", "from": 1, "to": 2}},
		{name: "vetoed: still cross-validated, short of its quorum", change: []given{voted("p1", "rosa", 1, events.Reject)}, chosen: []string{"p1"},
			code: "edition.quorum_lost", args: domain.Args{"proposal": "p1"}},
		{name: "another proposal ready and chosen with all", change: crossValidatedOn("p3", "bob", "acme", "support", nil, 4),
			chosen: []string{"p1", "p3"}, code: "edition.changed_joined", args: domain.Args{"proposal": "p3"}},
		{name: "the proposal no longer chosen with all", change: nil, chosen: []string{"p3"},
			code: "edition.changed_left", args: domain.Args{"proposal": "p1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, p1Validated(), crossValidatedOn("p3", "bob", "acme", "support", nil, 4))
			if tt.name == "another proposal ready and chosen with all" {
				w = newWorld(t, p1Validated())
			}
			pv, err := domain.Preview(w.ranking, w.edition, []*domain.Proposal{w.prop("p1")}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range tt.change {
				w.apply(g.actor, g.agg, g.data)
			}
			var chosen []*domain.Proposal
			for _, id := range tt.chosen {
				chosen = append(chosen, w.prop(id))
			}
			_, err = domain.DecidePublish(w.ranking, w.edition, chosen, nil, nil, actor("pat"),
				domain.PublishEdition{Ranking: rk, Proposals: tt.chosen, PreviewHash: pv.Hash, Previewed: &pv.Pins})
			var se *domain.StateError
			if !errors.Is(err, domain.ErrState) || !errors.As(err, &se) {
				t.Fatalf("publish: %v, want a state error (409) naming what changed", err)
			}
			if se.Code() != tt.code || len(se.Args) != len(tt.args) {
				t.Fatalf("code %s %v, want %s %v", se.Code(), se.Args, tt.code, tt.args)
			}
			for k, v := range tt.args {
				if se.Args[k] != v {
					t.Errorf("%s = %v, want %v", k, se.Args[k], v)
				}
			}
		})
	}
}
