package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// The commands on vendors' statements: a vendor writes (or rewrites) its
// statement about one of its entries; an editor hides one with a public
// reason.

// ReplyOutcome is what writing a statement did.
type ReplyOutcome struct {
	Result
	ID string // the statement's id
}

// WriteReply writes a vendor's statement about one of its entries.
func (h *Handler) WriteReply(ctx context.Context, a domain.Actor, c domain.WriteReply) (ReplyOutcome, error) {
	if !a.Sees(c.Ranking, c.Entry) {
		return ReplyOutcome{}, domain.ErrVendorScope // refused before anything about the entry is read
	}
	if !events.ValidID(c.Ranking) || domain.CheckSlug("entry", c.Entry) != nil {
		return ReplyOutcome{}, domain.ErrNotPublic
	}
	if c.Criterion != "" && domain.CheckSlug("criterion", c.Criterion) != nil {
		return ReplyOutcome{}, domain.Invalid("criterion", "ranking.not_criterion", nil)
	}
	out := ReplyOutcome{ID: domain.ReplyID(a.Name, c.Ranking, c.Entry, c.Criterion)}
	var err error
	out.Result, err = h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{domain.ReplyAggregate(out.ID)},
		reads: []events.Aggregate{domain.RankingID(c.Ranking), domain.EditionID(c.Ranking)},
		decide: func(s states) ([]domain.Change, error) {
			return domain.DecideWriteReply(s.reply(out.ID), s.ranking(c.Ranking), s.edition(c.Ranking), a, c)
		}})
	return out, err
}

// HideReply hides a statement with a public reason.
func (h *Handler) HideReply(ctx context.Context, a domain.Actor, c domain.HideReply) (Result, error) {
	if !events.ValidID(c.Reply) {
		return Result{}, domain.ErrReplyMissing
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{domain.ReplyAggregate(c.Reply)},
		decide: func(s states) ([]domain.Change, error) {
			return domain.DecideHideReply(s.reply(c.Reply), a, c)
		}})
}

func (s states) reply(id string) *domain.Reply {
	return stateOr(s, domain.ReplyAggregate(id), &domain.Reply{})
}
