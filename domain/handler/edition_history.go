package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// EditionHistory returns every edition a ranking published, oldest first:
// what an export walks to find the proposal (and so the evidence) behind
// each published value. An edition split into parts comes whole.
func (h *Handler) EditionHistory(ctx context.Context, ranking string) ([]events.EditionPublished, error) {
	if !events.ValidID(ranking) {
		return nil, domain.ErrRankingMissing
	}
	evs, err := h.store.Load(ctx, domain.EditionID(ranking), 0)
	if err != nil {
		return nil, err
	}
	return events.Editions(evs), nil
}
