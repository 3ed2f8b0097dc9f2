package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// ScheduleEdition records a scheduled edition.
func (h *Handler) ScheduleEdition(ctx context.Context, a domain.Actor, c domain.ScheduleEdition) (Result, error) {
	if !events.ValidID(c.Ranking) {
		return Result{}, domain.ErrRankingMissing
	}
	ids, err := domain.ChosenIDs(c.Proposals)
	if err != nil {
		return Result{}, err
	}
	reads := []events.Aggregate{domain.RankingID(c.Ranking)}
	for _, p := range ids {
		reads = append(reads, domain.ProposalID(p))
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{domain.EditionID(c.Ranking)}, reads: reads,
		decide: func(s states) ([]domain.Change, error) {
			chosen, entries, err := h.chosenIn(ctx, s, c.Ranking, ids)
			if err != nil {
				return nil, err
			}
			r, err := h.rankingForQuorum(ctx, s.ranking(c.Ranking), chosen...)
			if err != nil {
				return nil, err
			}
			return domain.DecideScheduleEdition(r, s.edition(c.Ranking), chosen, entries, a, h.now(), c)
		}})
}
