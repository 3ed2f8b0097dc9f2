package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// CancelSchedule cancels a pending scheduled edition.
func (h *Handler) CancelSchedule(ctx context.Context, a domain.Actor, c domain.CancelSchedule) (Result, error) {
	if !events.ValidID(c.Ranking) {
		return Result{}, domain.ErrRankingMissing
	}
	// The schedule's proposals never change (a schedule is an event): read
	// them from the edition as it is now, and the proposals with the command.
	var reads []events.Aggregate
	if ed, err := h.Edition(ctx, c.Ranking); err == nil && ed.Schedules[c.Schedule] != nil {
		for _, p := range ed.Schedules[c.Schedule].Proposals {
			reads = append(reads, domain.ProposalID(p.Proposal))
		}
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{domain.EditionID(c.Ranking)}, reads: reads,
		decide: func(s states) ([]domain.Change, error) {
			ed := s.edition(c.Ranking)
			var chosen []*domain.Proposal
			if sc := ed.Schedules[c.Schedule]; sc != nil {
				for _, pick := range sc.Proposals {
					p := s.proposal(pick.Proposal)
					if !p.Exists() { // scheduled after the edition was read above
						var err error
						if p, err = h.Proposal(ctx, pick.Proposal); err != nil {
							return nil, err
						}
					}
					chosen = append(chosen, p)
				}
			}
			return domain.DecideCancelSchedule(ed, chosen, a, c)
		}})
}
