package domain

import "github.com/crossrank/crossrank/events"

// RecordMailAddress records a fact about a user's mail address: confirmed
// (a first or a changed one) or, with Erased, erased. The address stays
// out of the log (see events.MailAddressConfirmed).
type RecordMailAddress struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	User      string
	Erased    bool
}

// DecideRecordMailAddress lets a user record their own address's facts
// (they opened its link, or erased it) and an admin (the operator) any
// user's, as one who vouches for it.
func DecideRecordMailAddress(u *User, actor Actor, c RecordMailAddress) ([]Change, error) {
	if !u.Exists() {
		return nil, ErrUserMissing
	}
	own := actor.Name == u.Username
	if !own {
		if err := actor.require(RoleAdmin); err != nil {
			return nil, err
		}
	}
	if c.Erased {
		return one(UserID(u.Username), &events.MailAddressErased{}), nil
	}
	by := events.MailByLink
	if !own {
		by = events.MailByOperator
	}
	return one(UserID(u.Username), &events.MailAddressConfirmed{By: by}), nil
}
