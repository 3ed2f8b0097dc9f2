package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// OpenProposal opens a proposal (and creates its entry when new).
func (h *Handler) OpenProposal(ctx context.Context, a domain.Actor, c domain.OpenProposal) (Result, error) {
	if err := domain.CheckProposalRefs(c); err != nil {
		return Result{}, err
	}
	if c.Methodology {
		// A methodology proposal reads the ranking and its published state
		// (the base of what it proposes); it writes only itself.
		return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{domain.ProposalID(c.ID)},
			reads: []events.Aggregate{domain.RankingID(c.Ranking), domain.EditionID(c.Ranking)},
			decide: func(s states) ([]domain.Change, error) {
				return domain.DecideOpenProposal(s.ranking(c.Ranking), nil, s.edition(c.Ranking), s.proposal(c.ID), a, c)
			}})
	}
	return h.run(ctx, openEntryProposal(a, c))
}

// openEntryProposal is the command that opens an entry's proposal: it
// writes the proposal, and the entry when new.
func openEntryProposal(a domain.Actor, c domain.OpenProposal) command {
	writes := []events.Aggregate{domain.ProposalID(c.ID)}
	reads := proposalReads(c.Ranking, c.DependsOn)
	if c.NewEntry != nil {
		writes = append(writes, domain.EntryID(c.Ranking, c.Entry))
	} else {
		reads = append(reads, domain.EntryID(c.Ranking, c.Entry))
	}
	return command{actor: a, commandID: c.CommandID, writes: writes, reads: reads,
		decide: func(s states) ([]domain.Change, error) {
			r := s.effectiveRanking(c.Ranking, c.DependsOn)
			return domain.DecideOpenProposal(r, s.entry(c.Ranking, c.Entry), s.edition(c.Ranking), s.proposal(c.ID), a, c)
		}}
}
