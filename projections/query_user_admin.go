package projections

import "context"

// maxAccountLog bounds UserAccountLog: the users page shows the latest
// administration of accounts; the audit trail holds all of it.
const maxAccountLog = 500

// UserAccountLog lists, newest first, what was done to accounts by someone
// other than their owner (who invited, reset, granted or revoked what, and
// when) and each owner's acceptance of a one-time link: the users page
// shows it per user. The rows are the audit trail's own.
func (s *Store) UserAccountLog(ctx context.Context) ([]AuditRow, error) {
	return s.auditRows(ctx, `kind='user' AND (actor<>aggregate OR type LIKE 'crossrank.user.invitation_accepted.%')
		ORDER BY seq DESC LIMIT ?`, maxAccountLog)
}
