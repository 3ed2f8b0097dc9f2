package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// RankImpact loads a proposal, its ranking and the published edition and
// computes the rank-impact preview of the proposal's current changes.
func (h *Handler) RankImpact(ctx context.Context, proposal string) (domain.Impact, error) {
	p, err := h.Proposal(ctx, proposal)
	if err != nil {
		return domain.Impact{}, err
	}
	j, err := h.JudgedBy(ctx, p) // a ranking in review: its proposed criteria
	if err != nil {
		return domain.Impact{}, err
	}
	r := j.Ranking
	ed, err := h.Edition(ctx, p.Ranking)
	if err != nil {
		return domain.Impact{}, err
	}
	cat := ""
	if pe := ed.Entry(p.Entry); pe != nil {
		cat = pe.Category
	} else if e, err := h.Entry(ctx, p.Ranking, p.Entry); err == nil {
		cat = e.Category
	}
	return domain.RankImpact(r, ed, p, cat), nil
}
