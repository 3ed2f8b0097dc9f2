package history

import (
	"fmt"
	"slices"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// propose opens a proposal on entry e of d (registering the entry when it is
// new), with evidence and score changes (on crit first, when given), and
// takes it through review. It returns the proposal's id when it ends
// cross-validated, "" when it was withdrawn or rejected.
func (s *generator) propose(d *desk, e, crit string) (string, error) {
	d.opened++
	id := fmt.Sprintf("%s-p%d", d.slug, d.opened)
	a := s.Actor(s.pick(s.editors))
	r := s.Ranking(d.slug)
	open := domain.OpenProposal{ID: id, Ranking: d.slug, Entry: e,
		Title: fmt.Sprintf("Scores for %s, round %d", e, d.opened), Summary: "Sources checked this month."}
	isNew := !d.created[e]
	if isNew {
		open.NewEntry = &domain.NewEntry{Name: text("Entry " + e), Category: fmt.Sprintf("k%d", 1+s.Rng.IntN(4)),
			Website: "https://example.com/" + e, Description: text("A platform in the synthetic market.")}
		d.created[e] = true
	}
	if err := s.As(a)(domain.DecideOpenProposal(r, s.Entry(d.slug, e), s.Edition(d.slug), s.Proposal(id), a, open)); err != nil {
		return "", err
	}
	for range 2 + s.Rng.IntN(3) {
		if err := s.evidence(id, a); err != nil {
			return "", err
		}
	}
	if s.Rng.IntN(10) == 0 { // an item added by mistake and taken out again
		if err := s.evidence(id, a); err != nil {
			return "", err
		}
		ids := s.Proposal(id).EvidenceIDs()
		if err := s.As(a)(domain.DecideRemoveEvidence(s.Proposal(id), a, ids[len(ids)-1])); err != nil {
			return "", err
		}
	}
	crits := []string{}
	if crit != "" {
		crits = append(crits, crit)
	}
	for _, c := range s.Rng.Perm(criteria)[:1+s.Rng.IntN(4)] {
		if c := fmt.Sprintf("c%d", c+1); !slices.Contains(crits, c) {
			crits = append(crits, c)
		}
	}
	for _, c := range crits {
		if err := s.score(d, id, a, c); err != nil {
			return "", err
		}
	}
	if err := s.attributes(d, id, a, isNew); err != nil {
		return "", err
	}
	end := func(withdraw bool) (string, error) {
		p := s.Proposal(id)
		var err error
		if withdraw {
			err = s.As(a)(domain.DecideWithdraw(p, a, "Superseded by another proposal."))
		} else {
			pub := s.Actor(s.pick(s.publishers))
			err = s.As(pub)(domain.DecideReject(p, pub, "The sources do not support these changes."))
		}
		if isNew {
			d.orphan[e] = true
		}
		return "", err
	}
	if s.Rng.IntN(25) == 0 {
		return end(true)
	}
	if err := s.As(a)(domain.DecideSubmit(s.Edition(d.slug), s.Proposal(id), a)); err != nil {
		return "", err
	}
	switch x := s.Rng.IntN(100); {
	case x < 3:
		return end(true)
	case x < 6:
		return end(false)
	}
	return id, s.review(d, id)
}

// attributes proposes attribute changes (always for a new entry), and now
// and then a change that is removed again.
func (s *generator) attributes(d *desk, id string, a domain.Actor, isNew bool) error {
	r, ed := s.Ranking(d.slug), s.Edition(d.slug)
	if isNew || s.Rng.IntN(5) == 0 {
		region := []string{"cn-north", "cn-east", "cn-south", "overseas"}[s.Rng.IntN(4)]
		c := domain.ProposeAttribute{Proposal: id, Attribute: "region", To: []string{region},
			Rationale: events.Text{En: "Regions listed on the pricing page."}, Evidence: s.cite(s.Proposal(id))}
		if err := s.As(a)(domain.DecideProposeAttribute(r, ed, s.Proposal(id), a, c)); err != nil {
			return err
		}
	}
	if isNew {
		c := domain.ProposeAttribute{Proposal: id, Attribute: "access", To: []string{"root", "container"}[:1+s.Rng.IntN(2)],
			Rationale: events.Text{En: "Access modes in the documentation."}, Evidence: s.cite(s.Proposal(id))}
		if err := s.As(a)(domain.DecideProposeAttribute(r, ed, s.Proposal(id), a, c)); err != nil {
			return err
		}
	}
	if s.Rng.IntN(10) == 0 {
		c := domain.ProposeAttribute{Proposal: id, Attribute: "access", To: []string{"notebook"},
			Rationale: events.Text{En: "Maybe."}, Evidence: s.cite(s.Proposal(id))}
		if err := s.As(a)(domain.DecideProposeAttribute(r, ed, s.Proposal(id), a, c)); err != nil {
			return err
		}
		if isNew { // put the new entry's access back
			c.To = []string{"root"}
			return s.As(a)(domain.DecideProposeAttribute(r, ed, s.Proposal(id), a, c))
		}
		return s.As(a)(domain.DecideRemoveChange(s.Proposal(id), a, "attr:access"))
	}
	return nil
}

// review takes a submitted proposal to cross-validated: two approvals in
// most cases, or a veto answered by a revision, or a veto a publisher
// dismisses, or a first approval that verified only part of the evidence.
func (s *generator) review(d *desk, id string) error {
	rv := s.Rng.Perm(len(s.reviewers))
	r1, r2, r3 := s.reviewers[rv[0]], s.reviewers[rv[1]], s.reviewers[rv[2]]
	all := func() []string { return s.Proposal(id).EvidenceIDs() }
	steps := []func() error{}
	switch x := s.Rng.IntN(100); {
	case x < 10: // veto, answered by a revision
		reviser := s.Actor(s.pick(s.editors))
		p := s.Proposal(id)
		steps = append(steps,
			func() error { return s.vote(d, id, r1, events.Reject, nil) },
			func() error {
				return s.As(reviser)(domain.DecideRevise(s.Edition(d.slug), p, reviser, "Answers the veto with a better source."))
			},
			func() error { return s.evidence(id, reviser) },
			func() error { return s.score(d, id, reviser, scored(p)[0]) },
			func() error { return s.As(reviser)(domain.DecideSubmit(s.Edition(d.slug), p, reviser)) },
			func() error { return s.vote(d, id, r1, events.Approve, all()) },
			func() error { return s.vote(d, id, r2, events.Approve, all()) })
	case x < 18: // veto dismissed by a publisher
		pub := s.Actor(s.pick(s.publishers))
		steps = append(steps,
			func() error { return s.vote(d, id, r1, events.Approve, all()) },
			func() error { return s.vote(d, id, r2, events.Reject, nil) },
			func() error {
				return s.As(pub)(domain.DecideDismissVeto(s.Ranking(d.slug), s.Edition(d.slug), s.Proposal(id), pub,
					domain.DismissVeto{Proposal: id, Voter: r2, Reason: "The cited page says so."}))
			},
			func() error { return s.vote(d, id, r3, events.Approve, all()) })
	case x < 28: // the first approval verified only part of the evidence
		steps = append(steps,
			func() error { return s.vote(d, id, r1, events.Approve, all()[:1]) },
			func() error { return s.vote(d, id, r2, events.Approve, all()) })
	default:
		steps = append(steps,
			func() error { return s.vote(d, id, r1, events.Approve, all()) },
			func() error { return s.vote(d, id, r2, events.Approve, all()) })
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	if st := s.Proposal(id).Status; st != domain.StatusCrossValidated {
		return fmt.Errorf("synthetic history: %s ended %s, not cross-validated", id, st)
	}
	return nil
}

// rework revises a proposal an edition returned to review (its baselines
// move to the published values) and reviews it again.
func (s *generator) rework(d *desk, id string) error {
	a := s.Actor(s.pick(s.editors))
	if err := s.As(a)(domain.DecideRevise(s.Edition(d.slug), s.Proposal(id), a, "Rebased on the latest edition.")); err != nil {
		return err
	}
	if err := s.As(a)(domain.DecideSubmit(s.Edition(d.slug), s.Proposal(id), a)); err != nil {
		return err
	}
	return s.review(d, id)
}
