package handler

import (
	"context"
	"errors"

	"github.com/crossrank/crossrank/domain"
)

// reviewersOf loads the current roles of every voter on ps. A voter
// without a user account (a test's or a tool's actor, never a signed-in
// user) is not judged: nobody took a role from them.
func (h *Handler) reviewersOf(ctx context.Context, ps ...*domain.Proposal) (domain.ReviewerCheck, error) {
	holds := map[string]bool{}
	for _, p := range ps {
		if p == nil {
			continue
		}
		for name := range p.Votes {
			if _, seen := holds[name]; seen {
				continue
			}
			u, err := h.User(ctx, name)
			switch {
			case errors.Is(err, domain.ErrUserMissing):
				holds[name] = true
			case err != nil:
				return nil, err
			default:
				holds[name] = !u.Exists() || u.Actor().Has(domain.RoleReviewer)
			}
		}
	}
	return func(user string) bool { h, ok := holds[user]; return !ok || h }, nil
}

// rankingForQuorum is r with the current roles of ps's voters fed in.
func (h *Handler) rankingForQuorum(ctx context.Context, r *domain.Ranking, ps ...*domain.Proposal) (*domain.Ranking, error) {
	holds, err := h.reviewersOf(ctx, ps...)
	if err != nil {
		return nil, err
	}
	return r.WithReviewers(holds), nil
}

// QuorumNow evaluates p's quorum on r and ed as a publish would now,
// counting no approval of a conflicted reviewer or of one whose reviewer
// role was revoked. The desk and the API explain the quorum with it.
func (h *Handler) QuorumNow(ctx context.Context, r *domain.Ranking, ed *domain.Edition, p *domain.Proposal) (domain.QuorumState, error) {
	r, err := h.rankingForQuorum(ctx, r, p)
	if err != nil {
		return domain.QuorumState{}, err
	}
	return r.QuorumOf(p, ed), nil
}
