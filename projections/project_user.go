package projections

import (
	"fmt"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// projectUser keeps users and tokens; password and token hashes stay out of
// the read model (login reads the aggregate itself).
func (p *projector) projectUser(ev events.Event, u *domain.User, a *auditRow) error {
	switch d := ev.Data.(type) {
	case *events.UserRegistered:
		a.en, a.zh = "Registered user "+d.Username+" ("+strings.Join(d.Roles, ", ")+")", "注册用户 "+d.Username+"（"+strings.Join(d.Roles, "、")+"）"
		return p.exec(`INSERT INTO users(username, display_name, roles, registered_at, updated_at) VALUES (?,?,?,?,?)`, u.Username, u.DisplayName, jsonText(nonNil(u.Roles)), ts(ev.Time), ts(ev.Time))
	case *events.UserInvited:
		// The account is listed at once, pending until its owner chooses a
		// password; the admin who invited is the event's actor.
		a.en = "Invited user " + d.Username + " (" + strings.Join(d.Roles, ", ") + "); one-time link valid until " + d.ExpiresAt
		a.zh = "邀请用户 " + d.Username + "（" + strings.Join(d.Roles, "、") + "）；一次性链接有效期至 " + d.ExpiresAt
		return p.exec(`INSERT INTO users(username, display_name, roles, registered_at, updated_at) VALUES (?,?,?,?,?)`, u.Username, u.DisplayName, jsonText(nonNil(u.Roles)), ts(ev.Time), ts(ev.Time))
	case *events.PasswordReset:
		a.en, a.zh = "Reset the password of "+u.Username+": sessions ended", "重置 "+u.Username+" 的密码：登录会话已结束"
		if len(d.RevokedTokens) > 0 {
			a.en += "; revoked API tokens " + strings.Join(d.RevokedTokens, ", ")
			a.zh += "；吊销 API 令牌 " + strings.Join(d.RevokedTokens, "、")
		}
		if d.FeedTokenRevoked {
			a.en += "; revoked the private inbox feed token"
			a.zh += "；吊销收件箱私人订阅令牌"
		}
		a.en += "; new one-time link valid until " + d.ExpiresAt
		a.zh += "；新的一次性链接有效期至 " + d.ExpiresAt
		for _, id := range d.RevokedTokens {
			if err := p.exec(`UPDATE tokens SET revoked=1 WHERE token_id=?`, id); err != nil {
				return err
			}
		}
	case *events.InvitationAccepted:
		a.en, a.zh = "Chose a password on the one-time link", "通过一次性链接设置了自己的密码"
	case *events.InvitationRevoked:
		a.en, a.zh = "Revoked the one-time link of "+u.Username, "撤销 "+u.Username+" 的一次性链接"
	case *events.RoleGranted:
		a.en, a.zh, a.after = "Granted role "+d.Role+" to "+u.Username, "授予 "+u.Username+" 角色 "+d.Role, d.Role
	case *events.RoleRevoked:
		a.en, a.zh, a.before = "Revoked role "+d.Role+" from "+u.Username, "撤销 "+u.Username+" 的角色 "+d.Role, d.Role
	case *events.PasswordChanged:
		a.en, a.zh = "Changed password", "修改密码"
		if len(d.RevokedTokens) > 0 { // what the TokenRevoked events of older histories told
			a.en += "; revoked API tokens " + strings.Join(d.RevokedTokens, ", ")
			a.zh += "；吊销 API 令牌 " + strings.Join(d.RevokedTokens, "、")
		}
		for _, id := range d.RevokedTokens {
			if err := p.exec(`UPDATE tokens SET revoked=1 WHERE token_id=?`, id); err != nil {
				return err
			}
		}
	case *events.TokenIssued:
		a.en, a.zh = fmt.Sprintf("Issued API token %q", d.Name), fmt.Sprintf("签发 API 令牌「%s」", d.Name)
		if err := p.exec(`INSERT INTO tokens VALUES (?,?,?,?,?,0)`, d.TokenID, u.Username, d.Name, ts(ev.Time), d.ExpiresAt); err != nil {
			return err
		}
	case *events.InboxRead:
		a.en, a.zh = fmt.Sprintf("Marked the inbox read up to %d", d.UpTo), fmt.Sprintf("收件箱标为已读（至 %d）", d.UpTo)
		if err := p.exec(`UPDATE users SET inbox_read_upto=? WHERE username=?`, u.InboxReadUpTo, u.Username); err != nil {
			return err
		}
	case *events.FeedTokenSet:
		a.en, a.zh = "Set the private inbox feed token", "设置收件箱私人订阅令牌"
		if d.Hash == "" {
			a.en, a.zh = "Revoked the private inbox feed token", "吊销收件箱私人订阅令牌"
		}
	case *events.TokenRevoked:
		a.en, a.zh = "Revoked API token "+d.TokenID, "吊销 API 令牌 "+d.TokenID
		if err := p.exec(`UPDATE tokens SET revoked=1 WHERE token_id=?`, d.TokenID); err != nil {
			return err
		}
	}
	return p.exec(`UPDATE users SET roles=?, display_name=?, updated_at=? WHERE username=?`,
		jsonText(nonNil(u.Roles)), u.DisplayName, ts(ev.Time), u.Username)
}
