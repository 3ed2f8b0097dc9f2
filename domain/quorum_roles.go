package domain

import (
	"context"
	"errors"
	"fmt"
)

// An approval counts only while its voter holds the reviewer role: a
// reviewer whose role is revoked after approving no longer stands behind
// the proposal. Roles live in the users' aggregates, not the ranking's, so
// the command handler feeds the voters' current roles into the ranking the
// quorum is evaluated on (as declared conflicts reach it through the
// ranking), and every evaluation — the vote's transition, the preview,
// the publish, a scheduled edition, the desk and the API — agrees.

// reviewerCheck reports whether a user holds the reviewer role now.
type reviewerCheck func(user string) bool

// withReviewers returns a copy of r whose quorum evaluation counts only
// the approvals of voters holds accepts. r may be nil.
func (r *Ranking) withReviewers(holds reviewerCheck) *Ranking {
	var c Ranking
	if r != nil {
		c = *r
	}
	c.reviewers = holds
	return &c
}

// reviewerRevoked reports whether user's approval no longer counts because
// they no longer hold the reviewer role. Without roles fed in (the pure
// Decide tables, the history generator) every approval counts.
func (r *Ranking) reviewerRevoked(user string) bool {
	return r != nil && r.reviewers != nil && !r.reviewers(user)
}

// reviewersOf loads the current roles of every voter on ps. A voter
// without a user account (a test's or a tool's actor, never a signed-in
// user) is not judged: nobody took a role from them.
func (h *Handler) reviewersOf(ctx context.Context, ps ...*Proposal) (reviewerCheck, error) {
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
			case errors.Is(err, ErrUserMissing):
				holds[name] = true
			case err != nil:
				return nil, err
			default:
				holds[name] = !u.Exists() || u.Actor().Has(RoleReviewer)
			}
		}
	}
	return func(user string) bool { h, ok := holds[user]; return !ok || h }, nil
}

// rankingForQuorum is r with the current roles of ps's voters fed in.
func (h *Handler) rankingForQuorum(ctx context.Context, r *Ranking, ps ...*Proposal) (*Ranking, error) {
	holds, err := h.reviewersOf(ctx, ps...)
	if err != nil {
		return nil, err
	}
	return r.withReviewers(holds), nil
}

// QuorumNow evaluates p's quorum on r and ed as a publish would now,
// counting no approval of a conflicted reviewer or of one whose reviewer
// role was revoked. The desk and the API explain the quorum with it.
func (h *Handler) QuorumNow(ctx context.Context, r *Ranking, ed *Edition, p *Proposal) (QuorumState, error) {
	r, err := h.rankingForQuorum(ctx, r, p)
	if err != nil {
		return QuorumState{}, err
	}
	return r.QuorumOf(p, ed), nil
}

// judgeQuorum checks, as a publish is decided, that each chosen
// cross-validated proposal still meets the quorum: approvals of reviewers
// who declared a conflict or lost the reviewer role since do not count,
// nor does a policy below the floor. Preview alone does not judge (the
// desk previews a proposal as if review let it through); the preview the
// publisher is shown, the publish and a scheduled edition do.
func judgeQuorum(r *Ranking, ed *Edition, chosen []*Proposal) error {
	for _, p := range chosen {
		if q := r.QuorumOf(p, ed); !q.Met {
			return fmt.Errorf("%w: %s: the quorum is no longer met", ErrNotCrossValidated, p.ID)
		}
	}
	return nil
}
