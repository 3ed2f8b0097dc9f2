package handler

import (
	"context"
	"errors"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// ProposalSteps are commands on one proposal carried out as one: the
// proposal opened (unless Open is nil and it exists), evidence added,
// changes proposed and, when Submit is set, the draft submitted. Each
// decides on what the ones before it decided, with the rules it has on
// its own, and their events are stored in one atomic append or not at
// all. Each keeps its command id, so the events are those the commands one
// by one would have stored, and carrying them out again stores nothing
// new (a step already stored is passed over).
//
// A ranking file's import runs one per entry: an entry of ten criteria
// and three evidence items was fifteen appends, each waiting for its
// fsync, and is one.
type ProposalSteps struct {
	Open       *domain.OpenProposal // not a methodology proposal
	Proposal   string               // the proposal, when Open is nil
	Evidence   []domain.AddEvidence
	Scores     []domain.ProposeScore
	Attributes []domain.ProposeAttribute
	Submit     *domain.Submit
}

// errStepsProposal: a step of ProposalSteps names another proposal.
var errStepsProposal = errors.New("handler: the steps name more than one proposal")

// RunProposalSteps carries out c as one command.
func (h *Handler) RunProposalSteps(ctx context.Context, a domain.Actor, c ProposalSteps) (Result, error) {
	id, rk, dep := c.Proposal, "", ""
	var writes, reads []events.Aggregate
	if o := c.Open; o != nil {
		if o.Methodology {
			return Result{}, errors.New("handler: a methodology proposal opens on its own")
		}
		if err := domain.CheckProposalRefs(*o); err != nil {
			return Result{}, err
		}
		id, rk, dep = o.ID, o.Ranking, o.DependsOn
		if o.NewEntry != nil {
			writes = append(writes, domain.EntryID(o.Ranking, o.Entry))
		} else {
			reads = append(reads, domain.EntryID(o.Ranking, o.Entry))
		}
	} else {
		if !events.ValidID(id) {
			return Result{}, domain.ErrProposalMissing
		}
		var err error
		if rk, dep, err = h.proposalRanking(ctx, id); err != nil {
			return Result{}, err
		}
	}
	writes = append(writes, domain.ProposalID(id))
	reads = append(reads, domain.RankingID(rk), domain.EditionID(rk))
	if dep != "" {
		reads = append(reads, domain.ProposalID(dep))
	}
	var steps []step
	add := func(proposal, commandID string, decide func(s states) ([]domain.Change, error)) {
		steps = append(steps, step{commandID: commandID, decide: func(s states) ([]domain.Change, error) {
			if proposal != id {
				return nil, errStepsProposal
			}
			return decide(s)
		}})
	}
	if o := c.Open; o != nil {
		add(o.ID, o.CommandID, func(s states) ([]domain.Change, error) {
			return domain.DecideOpenProposal(s.effectiveRanking(rk, dep), s.entry(rk, o.Entry), s.edition(rk), s.proposal(id), a, *o)
		})
	}
	for _, ev := range c.Evidence {
		add(ev.Proposal, ev.CommandID, func(s states) ([]domain.Change, error) {
			return domain.DecideAddEvidence(s.proposal(id), a, ev)
		})
	}
	for _, sc := range c.Scores {
		add(sc.Proposal, sc.CommandID, func(s states) ([]domain.Change, error) {
			return domain.DecideProposeScore(s.effectiveRanking(rk, dep), s.edition(rk), s.proposal(id), a, sc)
		})
	}
	for _, at := range c.Attributes {
		add(at.Proposal, at.CommandID, func(s states) ([]domain.Change, error) {
			return domain.DecideProposeAttribute(s.effectiveRanking(rk, dep), s.edition(rk), s.proposal(id), a, at)
		})
	}
	if sub := c.Submit; sub != nil {
		add(sub.Proposal, sub.CommandID, func(s states) ([]domain.Change, error) {
			return domain.DecideSubmit(s.edition(rk), s.proposal(id), a)
		})
	}
	if len(steps) == 0 {
		return Result{}, nil
	}
	return h.run(ctx, command{actor: a, writes: writes, reads: reads, steps: steps})
}
