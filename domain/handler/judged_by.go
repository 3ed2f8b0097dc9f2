package handler

import (
	"context"
	"errors"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// JudgedBy returns the ranking p is judged by (JudgingRanking). It never
// fails because the ranking is not defined: a proposal whose ranking is
// neither defined nor proposed by an open proposal is judged by an empty
// ranking under the default quorum, and can be read, not decided.
func (h *Handler) JudgedBy(ctx context.Context, p *domain.Proposal) (domain.Judging, error) {
	r, err := h.Ranking(ctx, p.Ranking)
	if err == nil {
		return domain.Judging{Ranking: r}, nil
	}
	if !errors.Is(err, domain.ErrRankingMissing) {
		return domain.Judging{}, err
	}
	dep := p
	if !p.NewRanking {
		dep = nil
		if p.DependsOn != "" && events.ValidID(p.DependsOn) {
			d, err := h.Proposal(ctx, p.DependsOn)
			if err != nil && !errors.Is(err, domain.ErrProposalMissing) {
				return domain.Judging{}, err
			}
			dep = d
		}
	}
	if jr, ok := domain.JudgingRanking(&domain.Ranking{}, p.Ranking, dep); ok {
		j := domain.Judging{Ranking: jr}
		if dep != p {
			j.InReview = dep.ID
		}
		return j, nil
	}
	return domain.Judging{Ranking: &domain.Ranking{Slug: p.Ranking, Quorum: domain.DefaultQuorum}}, nil
}
