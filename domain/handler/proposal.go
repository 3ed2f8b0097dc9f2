package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// proposalDecision decides a command on one proposal, given the ranking it
// is judged against and the published edition.
type proposalDecision func(r *domain.Ranking, ed *domain.Edition, p *domain.Proposal) ([]domain.Change, error)

// onProposal runs a command that writes one proposal and reads its ranking
// and published edition.
func (h *Handler) onProposal(ctx context.Context, a domain.Actor, commandID, proposal string, decide proposalDecision) (Result, error) {
	c, err := h.proposalCommand(ctx, a, commandID, proposal, decide)
	if err != nil {
		return Result{}, err
	}
	return h.run(ctx, c)
}

// proposalCommand is the command that writes an existing proposal and
// reads its ranking, the published edition and the new-ranking proposal
// it depends on.
func (h *Handler) proposalCommand(ctx context.Context, a domain.Actor, commandID, proposal string, decide proposalDecision) (command, error) {
	rk, dep, err := h.proposalRanking(ctx, proposal)
	if err != nil {
		return command{}, err
	}
	return command{actor: a, commandID: commandID, writes: []events.Aggregate{domain.ProposalID(proposal)},
		reads: proposalReads(rk, dep), decide: onStates(rk, dep, proposal, decide)}, nil
}

// proposalReads are what a command on a proposal of ranking rk, depending
// on dep, reads besides the proposal.
func proposalReads(rk, dep string) []events.Aggregate {
	reads := []events.Aggregate{domain.RankingID(rk), domain.EditionID(rk)}
	if dep != "" {
		reads = append(reads, domain.ProposalID(dep))
	}
	return reads
}

// onStates decides d on the loaded states of proposal, of ranking rk and
// depending on dep.
func onStates(rk, dep, proposal string, d proposalDecision) func(s states) ([]domain.Change, error) {
	return func(s states) ([]domain.Change, error) {
		return d(s.effectiveRanking(rk, dep), s.edition(rk), s.proposal(proposal))
	}
}

// effectiveRanking is the ranking a proposal is checked against
// (JudgingRanking): the ranking as defined, or, while it is unpublished,
// the methodology its open new-ranking proposal dep proposes.
func (s states) effectiveRanking(slug, dep string) *domain.Ranking {
	var d *domain.Proposal
	if dep != "" {
		d = s.proposal(dep)
	}
	r, _ := domain.JudgingRanking(s.ranking(slug), slug, d)
	return r
}

// proposalRanking returns the ranking a proposal belongs to and the
// new-ranking proposal it depends on, if any. Neither ever changes, so a
// cached state answers without a round trip to the store; the command then
// loads what it needs itself.
func (h *Handler) proposalRanking(ctx context.Context, id string) (ranking, dependsOn string, err error) {
	if !events.ValidID(id) {
		return "", "", domain.ErrProposalMissing
	}
	e := h.cache.get(domain.ProposalID(id))
	e.mu.Lock()
	p, ok := e.state.(*domain.Proposal)
	ok = ok && e.loaded && p.Exists()
	e.mu.Unlock()
	if ok {
		return p.Ranking, p.DependsOn, nil
	}
	p, err = h.Proposal(ctx, id)
	if err != nil {
		return "", "", err
	}
	return p.Ranking, p.DependsOn, nil
}
