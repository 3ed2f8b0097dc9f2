package projections

import (
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// projectUser keeps users and tokens; password and token hashes stay out of
// the read model (login reads the aggregate itself).
func (p *projector) projectUser(ev events.Event, u *domain.User, a *auditRow) error {
	switch d := ev.Data.(type) {
	case *events.UserRegistered:
		a.say("user_registered", "user", d.Username, "roles", nonNil(d.Roles))
		return p.exec(`INSERT INTO users(username, display_name, roles, registered_at, updated_at) VALUES (?,?,?,?,?)`, u.Username, u.DisplayName, jsonText(nonNil(u.Roles)), ts(ev.Time), ts(ev.Time))
	case *events.UserInvited:
		// The account is listed at once, pending until its owner chooses a
		// password; the admin who invited is the event's actor.
		a.say("user_invited", "user", d.Username, "roles", nonNil(d.Roles), "expires", d.ExpiresAt)
		return p.exec(`INSERT INTO users(username, display_name, roles, registered_at, updated_at) VALUES (?,?,?,?,?)`, u.Username, u.DisplayName, jsonText(nonNil(u.Roles)), ts(ev.Time), ts(ev.Time))
	case *events.PasswordReset:
		switch tokens := len(d.RevokedTokens) > 0; {
		case tokens && d.FeedTokenRevoked:
			a.say("password_reset_tokens_feed", "user", u.Username, "tokens", d.RevokedTokens, "expires", d.ExpiresAt)
		case tokens:
			a.say("password_reset_tokens", "user", u.Username, "tokens", d.RevokedTokens, "expires", d.ExpiresAt)
		case d.FeedTokenRevoked:
			a.say("password_reset_feed", "user", u.Username, "expires", d.ExpiresAt)
		default:
			a.say("password_reset", "user", u.Username, "expires", d.ExpiresAt)
		}
		for _, id := range d.RevokedTokens {
			if err := p.exec(`UPDATE tokens SET revoked=1 WHERE token_id=?`, id); err != nil {
				return err
			}
		}
		if err := p.exec(`DELETE FROM user_identities WHERE username=?`, u.Username); err != nil {
			return err
		}
	case *events.IdentityBound:
		a.say("identity_bound", "issuer", d.Issuer)
		// A subject signs in as the first account bound to it: the desk
		// refuses a second binding, and a race between two is settled here
		// the same way on every replica.
		if err := p.exec(`DELETE FROM user_identities WHERE username=?`, u.Username); err != nil {
			return err
		}
		return p.exec(`INSERT OR IGNORE INTO user_identities(issuer, subject, username, bound_at) VALUES (?,?,?,?)`,
			d.Issuer, d.Subject, u.Username, ts(ev.Time))
	case *events.InvitationAccepted:
		a.say("invitation_accepted")
	case *events.InvitationRevoked:
		a.say("invitation_revoked", "user", u.Username)
	case *events.RoleGranted:
		a.say("role_granted", "role", d.Role, "user", u.Username)
		a.after = d.Role
		if d.Role == domain.RoleReviewer {
			if err := p.requorumApprovals(u.Username); err != nil {
				return err
			}
		}
	case *events.RoleRevoked:
		a.say("role_revoked", "role", d.Role, "user", u.Username)
		a.before = d.Role
		if d.Role == domain.RoleReviewer { // their approvals stop counting (project_reviewers.go)
			if err := p.requorumApprovals(u.Username); err != nil {
				return err
			}
		}
	case *events.PasswordChanged:
		a.say("password_changed")
		if len(d.RevokedTokens) > 0 { // what the TokenRevoked events of older histories told
			a.say("password_changed_tokens", "tokens", d.RevokedTokens)
		}
		for _, id := range d.RevokedTokens {
			if err := p.exec(`UPDATE tokens SET revoked=1 WHERE token_id=?`, id); err != nil {
				return err
			}
		}
	case *events.TokenIssued:
		a.say("token_issued", "name", d.Name)
		if err := p.exec(`INSERT INTO tokens VALUES (?,?,?,?,?,0)`, d.TokenID, u.Username, d.Name, ts(ev.Time), d.ExpiresAt); err != nil {
			return err
		}
	case *events.InboxRead:
		a.say("inbox_read", "upto", d.UpTo)
		if err := p.exec(`UPDATE users SET inbox_read_upto=? WHERE username=?`, u.InboxReadUpTo, u.Username); err != nil {
			return err
		}
	case *events.MailAddressConfirmed:
		if d.By == events.MailByOperator {
			a.say("mail_address_confirmed_operator", "user", u.Username)
		} else {
			a.say("mail_address_confirmed_link", "user", u.Username)
		}
	case *events.MailAddressErased:
		a.say("mail_address_erased", "user", u.Username)
	case *events.FeedTokenSet:
		a.say("feed_token_set")
		if d.Hash == "" {
			a.say("feed_token_revoked")
		}
	case *events.TokenRevoked:
		a.say("token_revoked", "token", d.TokenID)
		if err := p.exec(`UPDATE tokens SET revoked=1 WHERE token_id=?`, d.TokenID); err != nil {
			return err
		}
	}
	return p.exec(`UPDATE users SET roles=?, display_name=?, updated_at=? WHERE username=?`,
		jsonText(nonNil(u.Roles)), u.DisplayName, ts(ev.Time), u.Username)
}
