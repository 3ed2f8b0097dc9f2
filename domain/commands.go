package domain

import (
	"context"
	"fmt"

	"github.com/crossrank/crossrank/events"
)

// Every method below is one use case: it names the aggregates the command
// writes and reads and hands the loaded states to the pure decision. Every
// command carries its CommandID, the caller's idempotency key (the form or
// request carries it): running a command again with the same CommandID
// returns the first result and appends nothing.

// OpenProposal opens a proposal (and creates its entry when new).
func (h *Handler) OpenProposal(ctx context.Context, a Actor, c OpenProposal) (Result, error) {
	if !events.ValidID(c.ID) || !events.ValidID(c.Ranking) || (!c.Methodology && CheckSlug("entry", c.Entry) != nil) ||
		(c.DependsOn != "" && !events.ValidID(c.DependsOn)) {
		return Result{}, invalid("proposal", "field.bad_proposal_ref", nil)
	}
	if c.Methodology {
		// A methodology proposal reads the ranking and its published state
		// (the base of what it proposes); it writes only itself.
		return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{ProposalID(c.ID)},
			reads: []events.Aggregate{RankingID(c.Ranking), EditionID(c.Ranking)},
			decide: func(s states) ([]Change, error) {
				return DecideOpenProposal(s.ranking(c.Ranking), nil, s.edition(c.Ranking), s.proposal(c.ID), a, c)
			}})
	}
	writes := []events.Aggregate{ProposalID(c.ID)}
	reads := []events.Aggregate{RankingID(c.Ranking), EditionID(c.Ranking)}
	if c.DependsOn != "" {
		reads = append(reads, ProposalID(c.DependsOn))
	}
	if c.NewEntry != nil {
		writes = append(writes, EntryID(c.Ranking, c.Entry))
	} else {
		reads = append(reads, EntryID(c.Ranking, c.Entry))
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: writes, reads: reads,
		decide: func(s states) ([]Change, error) {
			r := s.effectiveRanking(c.Ranking, c.DependsOn)
			return DecideOpenProposal(r, s.entry(c.Ranking, c.Entry), s.edition(c.Ranking), s.proposal(c.ID), a, c)
		}})
}

// onProposal runs a command that writes one proposal and reads its ranking
// and published edition.
func (h *Handler) onProposal(ctx context.Context, a Actor, commandID, proposal string, decide func(r *Ranking, ed *Edition, p *Proposal) ([]Change, error)) (Result, error) {
	if !events.ValidID(proposal) {
		return Result{}, ErrProposalMissing
	}
	rk, dep, err := h.proposalRanking(ctx, proposal)
	if err != nil {
		return Result{}, err
	}
	reads := []events.Aggregate{RankingID(rk), EditionID(rk)}
	if dep != "" {
		reads = append(reads, ProposalID(dep))
	}
	return h.run(ctx, command{actor: a, commandID: commandID, writes: []events.Aggregate{ProposalID(proposal)},
		reads: reads,
		decide: func(s states) ([]Change, error) {
			return decide(s.effectiveRanking(rk, dep), s.edition(rk), s.proposal(proposal))
		}})
}

// effectiveRanking is the ranking a proposal is checked against
// (JudgingRanking): the ranking as defined, or, while it is unpublished,
// the methodology its open new-ranking proposal dep proposes.
func (s states) effectiveRanking(slug, dep string) *Ranking {
	var d *Proposal
	if dep != "" {
		d = s.proposal(dep)
	}
	r, _ := JudgingRanking(s.ranking(slug), slug, d)
	return r
}

// proposalRanking returns the ranking a proposal belongs to and the
// new-ranking proposal it depends on, if any. Neither ever changes, so a
// cached state answers without a round trip to the store; the command then
// loads what it needs itself.
func (h *Handler) proposalRanking(ctx context.Context, id string) (ranking, dependsOn string, err error) {
	e := h.cache.get(ProposalID(id))
	e.mu.Lock()
	p, ok := e.state.(*Proposal)
	ok = ok && e.loaded && p.Exists()
	e.mu.Unlock()
	if ok {
		return p.Ranking, p.DependsOn, nil
	}
	p, err = h.Proposal(ctx, id)
	if err != nil {
		return "", "", err
	}
	return p.Ranking, p.DependsOn, nil
}

// ProposeMethodology sets a methodology proposal's methodology.
func (h *Handler) ProposeMethodology(ctx context.Context, a Actor, c ProposeMethodology) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(r *Ranking, ed *Edition, p *Proposal) ([]Change, error) {
		return DecideProposeMethodology(r, ed, p, a, c)
	})
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
		r, err := h.rankingForQuorum(ctx, r, p)
		if err != nil {
			return nil, err
		}
		return DecideCastVote(r, ed, p, a, c)
	})
}

// DismissVeto lifts a reviewer's veto by a publisher.
func (h *Handler) DismissVeto(ctx context.Context, a Actor, c DismissVeto) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(r *Ranking, ed *Edition, p *Proposal) ([]Change, error) {
		r, err := h.rankingForQuorum(ctx, r, p)
		if err != nil {
			return nil, err
		}
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

// RequestReviewers asks reviewers to review a proposal.
func (h *Handler) RequestReviewers(ctx context.Context, a Actor, c RequestReviewers) (Result, error) {
	if !events.ValidID(c.Proposal) {
		return Result{}, ErrProposalMissing
	}
	if len(c.Reviewers) > MaxRequested {
		return Result{}, invalid("reviewers", "reviewers.count", Args{"limit": MaxRequested})
	}
	var reads []events.Aggregate
	for i, r := range c.Reviewers {
		if !events.ValidID(r) {
			return Result{}, invalid(fmt.Sprintf("reviewers[%d]", i), "reviewers.unknown", Args{"user": r})
		}
		reads = append(reads, UserID(r))
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{ProposalID(c.Proposal)}, reads: reads,
		decide: func(s states) ([]Change, error) {
			users := map[string]*User{}
			for _, r := range c.Reviewers {
				users[r] = s.user(r)
			}
			return DecideRequestReviewers(s.proposal(c.Proposal), users, a, c)
		}})
}

// AddComment comments on a proposal.
func (h *Handler) AddComment(ctx context.Context, a Actor, c AddComment) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *Ranking, _ *Edition, p *Proposal) ([]Change, error) {
		return DecideAddComment(p, a, c)
	})
}

// ResolveComment resolves a comment.
func (h *Handler) ResolveComment(ctx context.Context, a Actor, c ResolveComment) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *Ranking, _ *Edition, p *Proposal) ([]Change, error) {
		return DecideResolveComment(p, a, c)
	})
}

// DeclareConflict records a reviewer's declared conflict of interest.
func (h *Handler) DeclareConflict(ctx context.Context, a Actor, c DeclareConflict) (Result, error) {
	if !events.ValidID(c.Ranking) || (c.Entry != "" && CheckSlug("entry", c.Entry) != nil) {
		return Result{}, ErrRankingMissing
	}
	reads := []events.Aggregate{}
	if c.Entry != "" {
		reads = append(reads, EntryID(c.Ranking, c.Entry))
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{RankingID(c.Ranking)}, reads: reads,
		decide: func(s states) ([]Change, error) {
			return DecideDeclareConflict(s.ranking(c.Ranking), s.entry(c.Ranking, c.Entry), a, c)
		}})
}
