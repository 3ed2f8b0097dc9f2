package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// Publishable returns those of ids (a ranking's cross-validated
// proposals, from the read model) that actor may publish now: still
// cross-validated, and neither authored nor revised by actor. It is the
// choice "every proposal that is ready" the desk's publish page makes by
// default, resolved when it is posted.
func (h *Handler) Publishable(ctx context.Context, actor domain.Actor, ranking string, ids []string) ([]string, error) {
	if err := h.preloadChosen(ctx, ranking, ids); err != nil {
		return nil, err
	}
	ps := make([]*domain.Proposal, len(ids))
	if err := h.proposals(ctx, ids, ps); err != nil {
		return nil, err
	}
	var out []string
	for _, p := range ps {
		if p.Ranking == ranking && p.Status == domain.StatusCrossValidated && p.CanVote(actor.Name) {
			out = append(out, p.ID)
		}
	}
	return out, nil
}
