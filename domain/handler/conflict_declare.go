package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// DeclareConflict records a reviewer's declared conflict of interest.
func (h *Handler) DeclareConflict(ctx context.Context, a domain.Actor, c domain.DeclareConflict) (Result, error) {
	if !events.ValidID(c.Ranking) || (c.Entry != "" && domain.CheckSlug("entry", c.Entry) != nil) {
		return Result{}, domain.ErrRankingMissing
	}
	reads := []events.Aggregate{}
	if c.Entry != "" {
		reads = append(reads, domain.EntryID(c.Ranking, c.Entry))
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{domain.RankingID(c.Ranking)}, reads: reads,
		decide: func(s states) ([]domain.Change, error) {
			return domain.DecideDeclareConflict(s.ranking(c.Ranking), s.entry(c.Ranking, c.Entry), a, c)
		}})
}
