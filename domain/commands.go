package domain

import (
	"context"

	"github.com/crossrank/crossrank/events"
)

// Every method below is one use case: it names the aggregates the command
// writes and reads and hands the loaded states to the pure decision. Every
// command carries its CommandID, the caller's idempotency key (the form or
// request carries it): running a command again with the same CommandID
// returns the first result and appends nothing.

// DefineRanking creates a ranking.
func (h *Handler) DefineRanking(ctx context.Context, a Actor, c DefineRanking) (Result, error) {
	d := c.Definition
	agg := RankingID(d.Slug)
	if !events.ValidID(d.Slug) {
		return Result{}, invalid("slug", "field.bad_slug", nil)
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{agg},
		decide: func(s states) ([]Change, error) { return DecideDefineRanking(s.ranking(d.Slug), a, d) }})
}

// SetWeights replaces a ranking's criteria weights.
func (h *Handler) SetWeights(ctx context.Context, a Actor, c SetWeights) (Result, error) {
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{RankingID(c.Ranking)},
		decide: func(s states) ([]Change, error) { return DecideSetWeights(s.ranking(c.Ranking), a, c.Weights) }})
}

// SetScenarios replaces a ranking's scenarios and needs-filters.
func (h *Handler) SetScenarios(ctx context.Context, a Actor, c SetScenarios) (Result, error) {
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{RankingID(c.Ranking)},
		decide: func(s states) ([]Change, error) { return DecideSetScenarios(s.ranking(c.Ranking), a, c.Scenarios) }})
}

// OpenProposal opens a proposal (and creates its entry when new).
func (h *Handler) OpenProposal(ctx context.Context, a Actor, c OpenProposal) (Result, error) {
	if !events.ValidID(c.ID) || !events.ValidID(c.Ranking) || CheckSlug("entry", c.Entry) != nil {
		return Result{}, invalid("proposal", "field.bad_proposal_ref", nil)
	}
	writes := []events.Aggregate{ProposalID(c.ID)}
	reads := []events.Aggregate{RankingID(c.Ranking), EditionID(c.Ranking)}
	if c.NewEntry != nil {
		writes = append(writes, EntryID(c.Ranking, c.Entry))
	} else {
		reads = append(reads, EntryID(c.Ranking, c.Entry))
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: writes, reads: reads,
		decide: func(s states) ([]Change, error) {
			return DecideOpenProposal(s.ranking(c.Ranking), s.entry(c.Ranking, c.Entry), s.edition(c.Ranking), s.proposal(c.ID), a, c)
		}})
}

// onProposal runs a command that writes one proposal and reads its ranking
// and published edition.
func (h *Handler) onProposal(ctx context.Context, a Actor, commandID, proposal string, decide func(r *Ranking, ed *Edition, p *Proposal) ([]Change, error)) (Result, error) {
	if !events.ValidID(proposal) {
		return Result{}, ErrProposalMissing
	}
	rk, err := h.proposalRanking(ctx, proposal)
	if err != nil {
		return Result{}, err
	}
	return h.run(ctx, command{actor: a, commandID: commandID, writes: []events.Aggregate{ProposalID(proposal)},
		reads: []events.Aggregate{RankingID(rk), EditionID(rk)},
		decide: func(s states) ([]Change, error) {
			return decide(s.ranking(rk), s.edition(rk), s.proposal(proposal))
		}})
}

// proposalRanking returns the ranking a proposal belongs to. A proposal
// never moves to another ranking, so a cached state answers without a
// round trip to the store; the command then loads what it needs itself.
func (h *Handler) proposalRanking(ctx context.Context, id string) (string, error) {
	e := h.cache.get(ProposalID(id))
	e.mu.Lock()
	p, ok := e.state.(*Proposal)
	ok = ok && e.loaded && p.Exists()
	e.mu.Unlock()
	if ok {
		return p.Ranking, nil
	}
	p, err := h.Proposal(ctx, id)
	if err != nil {
		return "", err
	}
	return p.Ranking, nil
}

// AddEvidence attaches evidence to a draft.
func (h *Handler) AddEvidence(ctx context.Context, a Actor, c AddEvidence) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *Ranking, _ *Edition, p *Proposal) ([]Change, error) {
		return DecideAddEvidence(p, a, c)
	})
}

// RemoveEvidence drops an uncited evidence item from a draft.
func (h *Handler) RemoveEvidence(ctx context.Context, a Actor, c RemoveEvidence) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *Ranking, _ *Edition, p *Proposal) ([]Change, error) {
		return DecideRemoveEvidence(p, a, c.Evidence)
	})
}

// RecordCapture records the capture of an evidence item's source.
func (h *Handler) RecordCapture(ctx context.Context, a Actor, c RecordCapture) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *Ranking, _ *Edition, p *Proposal) ([]Change, error) {
		return DecideRecordCapture(p, a, c)
	})
}

// RecordRecheck records what a scheduled re-check found at an evidence
// item's captured source.
func (h *Handler) RecordRecheck(ctx context.Context, a Actor, c RecordRecheck) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *Ranking, _ *Edition, p *Proposal) ([]Change, error) {
		return DecideRecordRecheck(p, a, c)
	})
}

// ProposeScore proposes a score change.
func (h *Handler) ProposeScore(ctx context.Context, a Actor, c ProposeScore) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(r *Ranking, ed *Edition, p *Proposal) ([]Change, error) {
		return DecideProposeScore(r, ed, p, a, c)
	})
}

// ProposeAttribute proposes an attribute change.
func (h *Handler) ProposeAttribute(ctx context.Context, a Actor, c ProposeAttribute) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(r *Ranking, ed *Edition, p *Proposal) ([]Change, error) {
		return DecideProposeAttribute(r, ed, p, a, c)
	})
}

// RemoveChange drops a proposed change.
func (h *Handler) RemoveChange(ctx context.Context, a Actor, c RemoveChange) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *Ranking, _ *Edition, p *Proposal) ([]Change, error) {
		return DecideRemoveChange(p, a, c.Target)
	})
}

// Submit sends a draft to review.
func (h *Handler) Submit(ctx context.Context, a Actor, c Submit) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *Ranking, ed *Edition, p *Proposal) ([]Change, error) {
		return DecideSubmit(ed, p, a)
	})
}

// Revise opens a new revision.
func (h *Handler) Revise(ctx context.Context, a Actor, c Revise) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *Ranking, ed *Edition, p *Proposal) ([]Change, error) {
		return DecideRevise(ed, p, a, c.Note)
	})
}

// CastVote records a reviewer's vote.
func (h *Handler) CastVote(ctx context.Context, a Actor, c CastVote) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(r *Ranking, ed *Edition, p *Proposal) ([]Change, error) {
		return DecideCastVote(r, ed, p, a, c)
	})
}

// DismissVeto lifts a reviewer's veto by a publisher.
func (h *Handler) DismissVeto(ctx context.Context, a Actor, c DismissVeto) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(r *Ranking, ed *Edition, p *Proposal) ([]Change, error) {
		return DecideDismissVeto(r, ed, p, a, c)
	})
}

// Withdraw closes a proposal by its author.
func (h *Handler) Withdraw(ctx context.Context, a Actor, c Withdraw) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *Ranking, _ *Edition, p *Proposal) ([]Change, error) {
		return DecideWithdraw(p, a, c.Reason)
	})
}

// Reject closes a proposal by a publisher.
func (h *Handler) Reject(ctx context.Context, a Actor, c Reject) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *Ranking, _ *Edition, p *Proposal) ([]Change, error) {
		return DecideReject(p, a, c.Reason)
	})
}
