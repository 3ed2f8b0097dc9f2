package domain

import (
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
