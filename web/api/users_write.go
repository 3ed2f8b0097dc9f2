package api

import (
	"context"
	"net/http"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
)

// The writes of the users and the account run the desk's actions
// (web/command); what differs is the answer. A one-time link or a token
// is in the answer to the request that drew it, and nowhere else: the
// server keeps only its hash. A retry with the same command id stores
// nothing and answers without it, as the desk's page does when its form is
// sent twice.

// IssuedLink answers adding a user (201) and resetting a password (200):
// the one-time link on which the person chooses their password, to pass
// on. Link and expires_at are absent on a retry (replayed).
type IssuedLink struct {
	Username  string `json:"username"`
	Link      string `json:"link,omitempty"`
	ExpiresAt string `json:"expires_at,omitempty"`
	Command   string `json:"command"`
	Sequence  uint64 `json:"sequence"`
	Replayed  bool   `json:"replayed,omitempty"`
}

// IssuedToken answers issuing an API token (201): the token, shown this
// once. ID, token and expires_at are absent on a retry (replayed).
type IssuedToken struct {
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Token     string `json:"token,omitempty"`
	ExpiresAt string `json:"expires_at,omitempty"` // absent: does not expire
	Command   string `json:"command"`
	Sequence  uint64 `json:"sequence"`
	Replayed  bool   `json:"replayed,omitempty"`
}

// linkAnswer words the answer of a command that drew a link: who it is for
// and the link's token, "" on a retry.
func linkAnswer[In command.Input](act command.Action[In], link func(*In) (user, token string)) command.Action[In] {
	act.Answer = func(_ *command.Deps, ctx context.Context, in *In, commandID string, res handler.Result) any {
		user, token := link(in)
		out := IssuedLink{Username: user, Command: commandID, Sequence: res.Sequence, Replayed: res.Replayed}
		if token != "" {
			out.Link = auth.WelcomeURL(originOf(ctx), user, token)
			out.ExpiresAt = httpx.Now(ctx).Add(domain.InvitationTTL).UTC().Format(time.RFC3339)
		}
		return out
	}
	return act
}

// inviteUser is command.InviteUser answering with the link.
func inviteUser() command.Action[command.InviteInput] {
	return linkAnswer(command.InviteUser, func(in *command.InviteInput) (string, string) {
		return in.Username, in.LinkToken()
	})
}

// resetPassword is command.ResetPassword answering with the new link.
func resetPassword(s command.Sessions) command.Action[command.ResetInput] {
	return linkAnswer(command.ResetPassword(s), func(in *command.ResetInput) (string, string) {
		return in.User, in.LinkToken()
	})
}

// issueToken is command.IssueToken for the caller, answering with the
// token.
func issueToken() command.Action[command.TokenIssueInput] {
	act := command.IssueToken
	act.Path = func(r *http.Request, in *command.TokenIssueInput) { in.User = httpx.Actor(r.Context()).Name }
	act.Answer = func(_ *command.Deps, _ context.Context, in *command.TokenIssueInput, commandID string, res handler.Result) any {
		out := IssuedToken{ID: in.TokenID(), Name: in.Name, Token: in.Secret(), Command: commandID, Sequence: res.Sequence, Replayed: res.Replayed}
		if exp := in.Expires(); !exp.IsZero() {
			out.ExpiresAt = exp.UTC().Format(time.RFC3339)
		}
		return out
	}
	return act
}

// originKey holds, in a request's context, the site's address for the
// links its answer shows (withOrigin).
type originKey struct{}

// withOrigin puts the site's address for links to pass on into the
// request's context: the configured public URL, else the address the
// request came to.
func withOrigin(publicURL string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := publicURL
		if origin == "" {
			scheme := "http"
			if r.TLS != nil {
				scheme = "https"
			}
			origin = scheme + "://" + r.Host
		}
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), originKey{}, origin)))
	})
}

// originOf is the address withOrigin put into ctx ("" : a path on this
// site).
func originOf(ctx context.Context) string {
	s, _ := ctx.Value(originKey{}).(string)
	return s
}
