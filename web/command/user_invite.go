package command

import (
	"context"
	"net/http"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/httpx"
)

// Adding a user and resetting one both issue a one-time link on which the
// person chooses their own password: nobody but its owner ever knows a
// password, an admin neither. The link's token is drawn when the command
// runs and kept in the input for the one answer that shows it; a retry of
// the same command id stores nothing and draws no link.

// InviteInput adds a user. Password is there only to be refused: a client
// that sends one expects it to count, and it never does.
type InviteInput struct {
	WithCommandID
	Username    string   `json:"username"`
	DisplayName string   `json:"display_name"`
	Roles       []string `json:"roles"`
	Entries     []string `json:"entries,omitempty"` // a vendor's own entries, "ranking/entry"
	Password    string   `json:"password,omitempty"`
	token       string
}

// LinkToken returns the one-time link's token the command drew, or "" when
// the command was a retry: the link was shown the first time.
func (in *InviteInput) LinkToken() string { return in.token }

// InviteUser adds an account without a password and issues its one-time
// link (admins; the domain decides).
var InviteUser = Action[InviteInput]{
	Name:    "user.invite",
	Created: true,
	Form: func(f *httpx.Form, in *InviteInput) {
		// What a form's field holds as typed: a name with a stray space
		// or a capital is the name the admin meant.
		in.Username = strings.ToLower(strings.TrimSpace(f.Str("username")))
		in.DisplayName = strings.TrimSpace(f.Str("display_name"))
		in.Password, in.Roles = f.Str("password"), f.Strs("roles")
		in.Entries = vendorEntriesField(f.Str("entries"))
	},
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *InviteInput) (handler.Result, error) {
		if in.Password != "" {
			return handler.Result{}, domain.ErrPasswordNotOwn
		}
		token, hash := auth.NewLinkToken()
		res, err := d.Commands.InviteUser(ctx, a, domain.InviteUser{CommandID: commandID, Username: in.Username,
			DisplayName: in.DisplayName, Roles: in.Roles, Entries: in.Entries, LinkHash: hash})
		if err == nil && !res.Replayed {
			in.token = token
		}
		return res, err
	},
	Resource: func(_ *Deps, _ context.Context, in *InviteInput, _ string) (string, string) {
		return in.Username, userResource(in.Username)
	},
}

// userPath fills a username from the {name} wildcard.
func userPath(r *http.Request) string { return r.PathValue("name") }

// userResource is a user's address on the API.
func userResource(name string) string { return "/api/v1/users/" + name }

// vendorEntriesField splits the form's entries field, "ranking/entry"
// separated by commas or spaces; the domain checks each.
func vendorEntriesField(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' })
}
