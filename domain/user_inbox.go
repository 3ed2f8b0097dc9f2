package domain

import (
	"context"

	"github.com/crossrank/crossrank/events"
)

// MarkInboxRead marks a user's own inbox read up to a stream sequence.
type MarkInboxRead struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	User      string
	UpTo      uint64
}

// DecideMarkInboxRead lets a user mark their own inbox read; marking less
// than is read already changes nothing.
func DecideMarkInboxRead(u *User, actor Actor, c MarkInboxRead) ([]Change, error) {
	if !u.Exists() {
		return nil, ErrUserMissing
	}
	if actor.Name != u.Username {
		return nil, ErrNotOwnInbox
	}
	if c.UpTo <= u.InboxReadUpTo {
		return nil, nil
	}
	return one(UserID(u.Username), &events.InboxRead{UpTo: c.UpTo}), nil
}

// SetFeedToken sets, or with an empty hash revokes, the token of a user's
// own private inbox feed.
type SetFeedToken struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	User      string
	Hash      string // hex SHA-256 of the token; "" revokes
}

// DecideSetFeedToken lets a user set or revoke their own feed token.
func DecideSetFeedToken(u *User, actor Actor, c SetFeedToken) ([]Change, error) {
	if !u.Exists() {
		return nil, ErrUserMissing
	}
	if actor.Name != u.Username {
		return nil, ErrNotOwnInbox
	}
	if c.Hash != "" && !hexHash.MatchString(c.Hash) {
		return nil, invalid("hash", "field.hex_sha256", nil)
	}
	if c.Hash == u.FeedTokenHash {
		return nil, nil
	}
	return one(UserID(u.Username), &events.FeedTokenSet{Hash: c.Hash}), nil
}

// MarkInboxRead marks the actor's inbox read.
func (h *Handler) MarkInboxRead(ctx context.Context, a Actor, c MarkInboxRead) (Result, error) {
	if !events.ValidID(c.User) {
		return Result{}, ErrUserMissing
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{UserID(c.User)},
		decide: func(s states) ([]Change, error) { return DecideMarkInboxRead(s.user(c.User), a, c) }})
}

// SetFeedToken sets or revokes the actor's inbox feed token.
func (h *Handler) SetFeedToken(ctx context.Context, a Actor, c SetFeedToken) (Result, error) {
	if !events.ValidID(c.User) {
		return Result{}, ErrUserMissing
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{UserID(c.User)},
		decide: func(s states) ([]Change, error) { return DecideSetFeedToken(s.user(c.User), a, c) }})
}
