package command

import (
	"context"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/httpx"
)

// MaxTokenDays bounds a token's validity.
const MaxTokenDays = 3650

// TokenIssueInput issues an API token for User. The token itself is drawn
// when the command runs and kept for the one answer that shows it.
type TokenIssueInput struct {
	WithCommandID
	User    string `json:"-"`
	Name    string `json:"name"`
	Days    int    `json:"expires_days"` // 0: does not expire
	tokenID string
	secret  string
	expires time.Time
}

// Secret returns the full token the command issued, or "" when the
// command was a retry: the token was shown the first time.
func (in *TokenIssueInput) Secret() string { return in.secret }

// TokenID returns the id of the token the command issued ("" on a retry).
func (in *TokenIssueInput) TokenID() string { return in.tokenID }

// Expires returns when the issued token expires; zero: never.
func (in *TokenIssueInput) Expires() time.Time { return in.expires }

// ErrTokenNeedsSession refuses a token issued by a caller signed in with
// an API token: a token that mints tokens would breed credentials that
// outlive it (a child of no expiry keeps working after its parent is
// revoked). The person issues tokens signed in with their password or
// their organisation's sign-in (the desk's account page, or the API with
// the session cookie); the operator with `crossrank token create`.
var ErrTokenNeedsSession = httpx.NewError("account.token_needs_session",
	"an API token is issued signed in with a session, not with another API token", domain.ErrForbidden)

// IssueToken issues a token for in.User. Nobody issues one for someone
// else, an admin neither: the domain decides. Nor does a token issue one
// (ErrTokenNeedsSession).
var IssueToken = Action[TokenIssueInput]{
	Name:    "user.issue_token",
	Created: true,
	Form:    func(f *httpx.Form, in *TokenIssueInput) { in.Name, in.Days = f.Str("name"), f.Int("expires_days") },
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *TokenIssueInput) (handler.Result, error) {
		if a.Via.Method == events.ViaToken {
			return handler.Result{}, ErrTokenNeedsSession
		}
		if in.Days < 0 || in.Days > MaxTokenDays {
			return handler.Result{}, domain.Invalid("expires_days", "field.validity_days", nil)
		}
		now := d.Now()
		id, _, full, hash := auth.NewToken(now)
		c := domain.IssueToken{CommandID: commandID, User: in.User, TokenID: id, Name: in.Name, Hash: hash}
		if in.Days > 0 {
			c.ExpiresAt = now.Add(time.Duration(in.Days) * 24 * time.Hour)
		}
		res, err := d.Commands.IssueToken(ctx, a, c)
		if err == nil && !res.Replayed {
			in.tokenID, in.secret, in.expires = id, full, c.ExpiresAt
		}
		return res, err
	},
	// A token has no address of its own: it is listed with its user.
	Resource: func(_ *Deps, _ context.Context, in *TokenIssueInput, _ string) (string, string) {
		return in.tokenID, ""
	},
}
