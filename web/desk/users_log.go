package desk

import (
	"context"

	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// accountLogs words what others did to each of the named accounts
// (projections' UserAccountLogOf), newest first: "2026-12-01 14:20 · ada:
// Invited user …".
func (d *Desk) accountLogs(ctx context.Context, p ui.Page, users []string) (map[string][]string, error) {
	rows, err := d.read.UserAccountLogOf(ctx, users)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, r := range rows {
		out[r.Aggregate] = append(out[r.Aggregate], p.T("users.log_line", p.DateTime(r.At), r.Actor, i18n.AuditLine(p.Lang, r.Msg, r.Args)))
	}
	return out, nil
}

// linkState fills in whether row's user has chosen a password and, if not,
// the state of their one-time link, as the domain sees it now.
func (d *Desk) linkState(ctx context.Context, p ui.Page, row *userRowView) error {
	u, err := d.cmd.User(ctx, row.Username)
	if err != nil {
		return err
	}
	if !u.Pending() {
		return nil
	}
	row.Pending = true
	switch now := httpx.Now(ctx); {
	case u.Invitation == nil:
		row.LinkStatus, row.LinkText = "none", p.T("users.link_revoked")
	case !now.Before(u.Invitation.ExpiresAt):
		row.LinkStatus, row.LinkText = "expired", p.T("users.link_expired", p.DateTime(u.Invitation.ExpiresAt))
	default:
		row.LinkStatus, row.LinkText = "open", p.T("users.link_open", p.DateTime(u.Invitation.ExpiresAt))
	}
	return nil
}
