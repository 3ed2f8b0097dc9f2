package handler

import (
	"context"
	"slices"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// FireSchedule publishes a scheduled edition as the publisher who
// scheduled it (or records why it cannot). Running it again does nothing.
func (h *Handler) FireSchedule(ctx context.Context, c domain.FireSchedule) (Result, error) {
	ed, err := h.Edition(ctx, c.Ranking)
	if err != nil {
		return Result{}, err
	}
	s := ed.Schedules[c.Schedule]
	if s == nil {
		return Result{}, domain.ErrScheduleMissing
	}
	if s.State != domain.SchedulePending {
		return Result{}, nil
	}
	actor := domain.Actor{Name: s.By, Via: events.Via{Method: events.ViaWorker}}
	if u, err := h.User(ctx, s.By); err == nil && u.Exists() {
		actor = u.Actor()
		actor.Via = events.Via{Method: events.ViaWorker}
	}
	var ids []string
	for _, p := range s.Proposals {
		ids = append(ids, p.Proposal)
	}
	writes := []events.Aggregate{domain.EditionID(c.Ranking), domain.RankingID(c.Ranking)}
	var others []string
	for _, p := range ids {
		writes = append(writes, domain.ProposalID(p))
	}
	for _, p := range c.Candidates {
		if events.ValidID(p) && !slices.Contains(ids, p) {
			others = append(others, p)
			writes = append(writes, domain.ProposalID(p))
		}
	}
	return h.run(ctx, command{actor: actor, commandID: c.CommandID, writes: writes,
		decide: func(st states) ([]domain.Change, error) {
			chosen, entries, err := h.chosenIn(ctx, st, c.Ranking, ids)
			if err != nil {
				return nil, err
			}
			var os []*domain.Proposal
			for _, p := range others {
				os = append(os, st.proposal(p))
			}
			r, err := h.rankingForQuorum(ctx, st.ranking(c.Ranking), chosen...)
			if err != nil {
				return nil, err
			}
			return domain.DecideFireSchedule(r, st.edition(c.Ranking), chosen, entries, os, actor, c)
		}})
}
