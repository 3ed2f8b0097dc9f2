package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// RankImpact loads a proposal, its ranking and the published edition and
// computes the rank-impact preview of the proposal's current changes.
func (h *Handler) RankImpact(ctx context.Context, proposal string) (domain.Impact, error) {
	im, _, err := h.RankImpactIf(ctx, proposal, nil)
	return im, err
}

// RankImpactIf is RankImpact of the proposal as alter rewrites it (nil: as
// it stands), judged by the ranking it returns with the impact. alter gets
// the handler's cached state, shared with other requests: it returns a
// copy to change, never changes p. The edition's standings per scope come
// from the handler's memo, built once per edition position: a proposal
// page costs a binary search per scope, not a sort of the whole ranking.
func (h *Handler) RankImpactIf(ctx context.Context, proposal string, alter func(p *domain.Proposal, r *domain.Ranking) (*domain.Proposal, error)) (domain.Impact, *domain.Ranking, error) {
	p, err := h.Proposal(ctx, proposal)
	if err != nil {
		return domain.Impact{}, nil, err
	}
	j, err := h.JudgedBy(ctx, p) // a ranking in review: its proposed criteria
	if err != nil {
		return domain.Impact{}, nil, err
	}
	r := j.Ranking
	if alter != nil {
		if p, err = alter(p, r); err != nil {
			return domain.Impact{}, nil, err
		}
	}
	ed, err := h.Edition(ctx, p.Ranking)
	if err != nil {
		return domain.Impact{}, nil, err
	}
	cat := ""
	if pe := ed.Entry(p.Entry); pe != nil {
		cat = pe.Category
	} else if e, err := h.Entry(ctx, p.Ranking, p.Entry); err == nil {
		cat = e.Category
	}
	return domain.RankImpact(r, ed, p, cat, &h.standings), r, nil
}
