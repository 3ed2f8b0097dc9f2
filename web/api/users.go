package api

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// The users and the signed-in user's account, as the desk's users and
// account pages show them: admins read every user; everyone reads their
// own account and tokens. A token is listed by its id, name, dates and
// state, never its secret or hash.

// UserReads is what the users and account reads need from the read models.
type UserReads interface {
	// UsersPage returns a page of the users by name, and how many there are.
	UsersPage(ctx context.Context, page, perPage int) ([]projections.UserRow, int, error)
	// Tokens lists the API tokens of a user, newest first.
	Tokens(ctx context.Context, username string) ([]projections.TokenRow, error)
}

var _ UserReads = (*projections.Store)(nil)

// UserList is one page of GET /api/v1/users, by name. Next is the
// following page's number; absent on the last page.
type UserList struct {
	Users []User `json:"users"`
	Total int    `json:"total"`
	Page  int    `json:"page"`
	Next  int    `json:"next,omitempty"`
}

// User is an account: its roles, whether its person has chosen a password
// yet (pending, with the state of their one-time link) and its API tokens.
type User struct {
	Username     string      `json:"username"`
	DisplayName  string      `json:"display_name"`
	Roles        []string    `json:"roles"`
	RegisteredAt string      `json:"registered_at,omitempty"`
	Pending      bool        `json:"pending"`
	Invitation   *Invitation `json:"invitation,omitempty"`
	Tokens       []Token     `json:"tokens"`
}

// Invitation is a pending account's one-time link: open (until
// expires_at), expired, or revoked (a reset issues a new one).
type Invitation struct {
	Status    string `json:"status"`
	ExpiresAt string `json:"expires_at,omitempty"`
	Reset     bool   `json:"reset"` // issued by a reset rather than by adding the user
}

// Token is an API token as listed: active, revoked or expired.
type Token struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	IssuedAt  string `json:"issued_at"`
	ExpiresAt string `json:"expires_at,omitempty"` // absent: does not expire
	Status    string `json:"status"`
}

// ?limit= of the users list is userDefaultLimit when absent (the desk's
// page), capped at userMaxLimit.
const (
	userDefaultLimit = 50
	userMaxLimit     = 200
)

// userList answers GET /api/v1/users?page=&limit= to admins.
//
// The read models answer the page alone (in SQL, by name). Whether a user
// is pending, and their
// link's state, come from the user aggregate, one load per listed user, as
// on the desk's page: the read models do not keep them yet.
func userList(cmds *handler.Handler, read UserReads) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if !httpx.Actor(ctx).Has(domain.RoleAdmin) {
			ui.Fail(w, r, domain.ErrRoleRequired)
			return
		}
		q := r.URL.Query()
		limit, err := intParam(q.Get("limit"), userDefaultLimit, "limit")
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		limit = min(limit, userMaxLimit)
		out := UserList{Users: []User{}}
		if out.Page, err = intParam(q.Get("page"), 1, "page"); err != nil {
			ui.Fail(w, r, err)
			return
		}
		rows, total, err := read.UsersPage(ctx, out.Page, limit)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		out.Total = total
		if out.Page*limit < total {
			out.Next = out.Page + 1
		}
		for _, row := range rows {
			u, err := userOf(ctx, cmds, read, row)
			if err != nil {
				ui.Fail(w, r, err)
				return
			}
			out.Users = append(out.Users, u)
		}
		httpx.WriteJSON(w, http.StatusOK, out)
	}
}

// userGet answers GET /api/v1/users/{name} to admins.
func userGet(cmds *handler.Handler, read UserReads) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !httpx.Actor(r.Context()).Has(domain.RoleAdmin) {
			ui.Fail(w, r, domain.ErrRoleRequired)
			return
		}
		serveUser(w, r, cmds, read, r.PathValue("name"))
	}
}

// account answers GET /api/v1/account: the caller's own account.
func account(cmds *handler.Handler, read UserReads) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		serveUser(w, r, cmds, read, httpx.Actor(r.Context()).Name)
	}
}

// accountTokens answers GET /api/v1/account/tokens: the caller's tokens.
func accountTokens(read UserReads) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		tokens, err := tokensOf(ctx, read, httpx.Actor(ctx).Name)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		httpx.WriteJSON(w, http.StatusOK, struct {
			Tokens []Token `json:"tokens"`
		}{tokens})
	}
}

// serveUser answers with the user name, 404 when there is none.
func serveUser(w http.ResponseWriter, r *http.Request, cmds *handler.Handler, read UserReads, name string) {
	ctx := r.Context()
	u, err := cmds.User(ctx, name)
	if err == nil && !u.Exists() {
		err = domain.ErrUserMissing
	}
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	v, err := userView(ctx, read, u)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, v)
}

// userOf is the listed row with what the domain knows now of its link.
func userOf(ctx context.Context, cmds *handler.Handler, read UserReads, row projections.UserRow) (User, error) {
	u, err := cmds.User(ctx, row.Username)
	if err != nil {
		return User{}, err
	}
	v, err := userView(ctx, read, u)
	v.RegisteredAt = row.RegisteredAt
	return v, err
}

// userView is u as the API answers it, with its tokens from the read
// models and its link's state as the domain sees it now.
func userView(ctx context.Context, read UserReads, u *domain.User) (User, error) {
	v := User{Username: u.Username, DisplayName: u.DisplayName, Roles: slices.Sorted(slices.Values(u.Roles)), Pending: u.Pending()}
	if v.Pending {
		inv := &Invitation{Status: "revoked"}
		if u.Invitation != nil {
			inv.Reset, inv.ExpiresAt, inv.Status = u.Invitation.Reset, u.Invitation.ExpiresAt.UTC().Format(time.RFC3339), "open"
			if !httpx.Now(ctx).Before(u.Invitation.ExpiresAt) {
				inv.Status = "expired"
			}
		}
		v.Invitation = inv
	}
	var err error
	v.Tokens, err = tokensOf(ctx, read, u.Username)
	return v, err
}

// tokensOf lists user's tokens, newest first.
func tokensOf(ctx context.Context, read UserReads, user string) ([]Token, error) {
	rows, err := read.Tokens(ctx, user)
	if err != nil {
		return nil, err
	}
	now := httpx.Now(ctx)
	out := make([]Token, 0, len(rows))
	for _, t := range rows {
		v := Token{ID: t.ID, Name: t.Name, IssuedAt: t.IssuedAt.UTC().Format(time.RFC3339), Status: "active"}
		if !t.ExpiresAt.IsZero() {
			v.ExpiresAt = t.ExpiresAt.UTC().Format(time.RFC3339)
		}
		switch {
		case t.Revoked:
			v.Status = "revoked"
		case t.Expired(now):
			v.Status = "expired"
		}
		out = append(out, v)
	}
	return out, nil
}
