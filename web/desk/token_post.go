package desk

import (
	"context"
	"net/http"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// maxTokenDays bounds a token's validity.
const maxTokenDays = 3650

// tokenIssueInput is the issue-token form. The token itself is drawn when
// the command runs and kept in secret for the one page that shows it.
type tokenIssueInput struct {
	command.WithCommandID
	User   string
	Name   string
	Days   int // 0: does not expire
	secret string
}

var tokenIssueAction = command.Action[tokenIssueInput]{
	Name: "user.issue_token",
	Form: func(f *httpx.Form, in *tokenIssueInput) { in.Name, in.Days = f.Str("name"), f.Int("expires_days") },
	Run: func(d *command.Deps, ctx context.Context, a domain.Actor, commandID string, in *tokenIssueInput) (domain.Result, error) {
		if in.Days < 0 || in.Days > maxTokenDays {
			return domain.Result{}, domain.Invalid("expires_days", "field.validity_days", nil)
		}
		now := d.Now()
		id, _, full, hash := auth.NewToken(now)
		c := domain.IssueToken{CommandID: commandID, User: in.User, TokenID: id, Name: in.Name, Hash: hash}
		if in.Days > 0 {
			c.ExpiresAt = now.Add(time.Duration(in.Days) * 24 * time.Hour)
		}
		res, err := d.Commands.IssueToken(ctx, a, c)
		if err == nil && !res.Replayed {
			in.secret = full
		}
		return res, err
	},
}

// tokenRevokeInput revokes one token of a user.
type tokenRevokeInput struct {
	command.WithCommandID
	User  string
	Token string
}

var tokenRevokeAction = command.Action[tokenRevokeInput]{
	Name: "user.revoke_token",
	Path: func(r *http.Request, in *tokenRevokeInput) {
		in.User, in.Token = r.PathValue("name"), r.PathValue("token")
		if in.User == "" { // the account page: one's own token
			in.User = httpx.User(r.Context()).Username
		}
	},
	Form: func(*httpx.Form, *tokenRevokeInput) {},
	Run: func(d *command.Deps, ctx context.Context, a domain.Actor, commandID string, in *tokenRevokeInput) (domain.Result, error) {
		return d.Commands.RevokeToken(ctx, a, domain.RevokeToken{CommandID: commandID, User: in.User, TokenID: in.Token})
	},
}

// userTokenIssue issues a token for the user in the path, from the users
// page (admins; the domain refuses anyone but the admin themself).
func (d *Desk) userTokenIssue(w http.ResponseWriter, r *http.Request) {
	d.tokenIssue(w, r, r.PathValue("name"), paths.Users+"#user-"+r.PathValue("name"), func(st ui.FormState, status int) {
		d.RenderUsers(w, r, status, "token", st)
	})
}

// tokenIssue runs the issue form for user and answers with the page that
// shows the token, once: it is not stored anywhere the server could show
// it again. The answer is not a redirect for that reason; sending the form
// again (reload, double click) stores nothing and shows no token.
func (d *Desk) tokenIssue(w http.ResponseWriter, r *http.Request, user, back string, failed func(ui.FormState, int)) {
	f, err := httpx.ParseForm(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	in := tokenIssueInput{User: user}
	tokenIssueAction.Form(f, &in)
	err = f.Err()
	if err == nil {
		_, _, err = command.Execute(d.write, r.Context(), tokenIssueAction, f.CommandID(), &in, true)
	}
	if err != nil {
		if httpx.Status(err) >= 500 {
			ui.Fail(w, r, err)
			return
		}
		failed(ui.FormStateOf(httpx.Lang(r.Context()), f, err), httpx.Status(err))
		return
	}
	d.RenderTokenIssued(w, r, TokenIssued{Owner: user, Name: in.Name, Token: in.secret, Back: back})
}
