package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// RequestReviewers asks reviewers to review a proposal.
func (h *Handler) RequestReviewers(ctx context.Context, a domain.Actor, c domain.RequestReviewers) (Result, error) {
	if err := domain.CheckReviewersRequested(c); err != nil {
		return Result{}, err
	}
	var reads []events.Aggregate
	for _, r := range c.Reviewers {
		reads = append(reads, domain.UserID(r))
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{domain.ProposalID(c.Proposal)}, reads: reads,
		decide: func(s states) ([]domain.Change, error) {
			users := map[string]*domain.User{}
			for _, r := range c.Reviewers {
				users[r] = s.user(r)
			}
			return domain.DecideRequestReviewers(s.proposal(c.Proposal), users, a, h.now(), c)
		}})
}

// NudgeReviewer records that a review request's due date passed
// unanswered, when it did; otherwise it does nothing. Running it again
// does nothing.
func (h *Handler) NudgeReviewer(ctx context.Context, c domain.NudgeReviewer) (Result, error) {
	if !events.ValidID(c.Proposal) {
		return Result{}, domain.ErrProposalMissing
	}
	actor := domain.Actor{Name: domain.SystemActor, Via: events.Via{Method: events.ViaWorker}}
	return h.run(ctx, command{actor: actor, commandID: c.CommandID, writes: []events.Aggregate{domain.ProposalID(c.Proposal)},
		decide: func(s states) ([]domain.Change, error) {
			return domain.DecideNudgeReviewer(s.proposal(c.Proposal), c)
		}})
}
