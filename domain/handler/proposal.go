package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// onProposal runs a command that writes one proposal and reads its ranking
// and published edition.
func (h *Handler) onProposal(ctx context.Context, a domain.Actor, commandID, proposal string, decide func(r *domain.Ranking, ed *domain.Edition, p *domain.Proposal) ([]domain.Change, error)) (Result, error) {
	if !events.ValidID(proposal) {
		return Result{}, domain.ErrProposalMissing
	}
	rk, dep, err := h.proposalRanking(ctx, proposal)
	if err != nil {
		return Result{}, err
	}
	reads := []events.Aggregate{domain.RankingID(rk), domain.EditionID(rk)}
	if dep != "" {
		reads = append(reads, domain.ProposalID(dep))
	}
	return h.run(ctx, command{actor: a, commandID: commandID, writes: []events.Aggregate{domain.ProposalID(proposal)},
		reads: reads,
		decide: func(s states) ([]domain.Change, error) {
			return decide(s.effectiveRanking(rk, dep), s.edition(rk), s.proposal(proposal))
		}})
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
