package handler

import (
	"context"
	"slices"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// Publish releases the chosen proposals as the next edition. Those of
// c.Candidates whose baseline the edition changes return to review in the
// same atomic append.
func (h *Handler) Publish(ctx context.Context, a domain.Actor, c domain.PublishEdition) (Result, error) {
	if !events.ValidID(c.Ranking) {
		return Result{}, domain.ErrRankingMissing
	}
	ids, err := domain.ChosenIDs(c.Proposals)
	if err != nil {
		return Result{}, err
	}
	if c.Previewed == nil {
		c.Previewed = h.previewed.of(c.PreviewHash)
	}
	// The ranking is written too: an edition that publishes a methodology
	// proposal appends the ranking's MethodologyPublished.
	writes := []events.Aggregate{domain.EditionID(c.Ranking), domain.RankingID(c.Ranking)}
	var reads []events.Aggregate
	for _, p := range ids {
		writes = append(writes, domain.ProposalID(p))
	}
	var others []string
	for _, p := range c.Candidates {
		if events.ValidID(p) && !slices.Contains(ids, p) {
			others = append(others, p)
			writes = append(writes, domain.ProposalID(p))
		}
	}
	// New entries are read after the chosen proposals are loaded.
	if err := h.preloadChosen(ctx, c.Ranking, append(slices.Clone(ids), others...)); err != nil {
		return Result{}, err
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: writes, reads: reads,
		decide: func(s states) ([]domain.Change, error) {
			chosen, entries, err := h.chosenIn(ctx, s, c.Ranking, ids)
			if err != nil {
				return nil, err
			}
			var os []*domain.Proposal
			for _, p := range others {
				os = append(os, s.proposal(p))
			}
			r, err := h.rankingForQuorum(ctx, s.ranking(c.Ranking), chosen...)
			if err != nil {
				return nil, err
			}
			return domain.DecidePublish(r, s.edition(c.Ranking), chosen, entries, os, a, c)
		}})
}
