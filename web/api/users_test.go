package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// call sends body as JSON (nil: none) with method to target as c and
// decodes a 2xx answer into out (when not nil); it fails unless the status
// is want.
func (e *adminEnv) call(c *webtest.Client, method, target string, body any, header http.Header, want int, out any) string {
	e.T.Helper()
	var r io.Reader
	h := http.Header{}
	if body != nil {
		b, err := json.Marshal(body)
		if s, ok := body.(string); ok {
			b, err = []byte(s), nil
		}
		if err != nil {
			e.T.Fatal(err)
		}
		r = strings.NewReader(string(b))
		h.Set("Content-Type", "application/json")
	}
	for k, vs := range header {
		h[k] = vs
	}
	res, got := c.Do(method, target, r, h)
	if res.StatusCode != want {
		e.T.Fatalf("%s %s: status %d, want %d; body %.600s", method, target, res.StatusCode, want, got)
	}
	if out != nil && res.StatusCode/100 == 2 {
		if err := json.Unmarshal([]byte(got), out); err != nil {
			e.T.Fatalf("%s %s: %v in %s", method, target, err, got)
		}
	}
	return got
}

// user reads GET /api/v1/users/{name} as c.
func (e *adminEnv) user(c *webtest.Client, name string) api.User {
	e.T.Helper()
	var u api.User
	e.call(c, http.MethodGet, "/api/v1/users/"+name, nil, nil, http.StatusOK, &u)
	return u
}

func bearer(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }

func key(k string) http.Header { return http.Header{"Idempotency-Key": {k}} }

// welcomePath is the path and query of a one-time link the API answered.
func welcomePath(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil || u.Path != paths.Welcome || u.Query().Get("token") == "" {
		t.Fatalf("not a one-time link: %q", link)
	}
	return u.RequestURI()
}

// TestAPIUsersWorkflow runs the users and account workflows of the desk
// through the API alone: an admin invites, the person takes up the link and
// signs in, the admin grants and revokes roles, the person issues a token,
// uses it, revokes it, changes their password, and the admin resets them
// and revokes the new link.
func TestAPIUsersWorkflow(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	ada := e.Client("ada")

	// Invite: 201 with the link, once; the same key again stores nothing
	// and shows no link.
	var inv api.IssuedLink
	e.call(ada, http.MethodPost, "/api/v1/users", map[string]any{"username": "nina", "display_name": "Nina", "roles": []string{"editor"}},
		key("invite-nina"), http.StatusCreated, &inv)
	if inv.Username != "nina" || inv.Link == "" || inv.ExpiresAt == "" || inv.Replayed {
		t.Fatalf("invite: %+v", inv)
	}
	link := welcomePath(t, inv.Link)
	before := e.LastSeq()
	var again api.IssuedLink
	e.call(ada, http.MethodPost, "/api/v1/users", map[string]any{"username": "nina", "display_name": "Nina", "roles": []string{"editor"}},
		key("invite-nina"), http.StatusCreated, &again)
	if !again.Replayed || again.Link != "" || again.Command != inv.Command || e.LastSeq() != before {
		t.Errorf("the invitation sent again: %+v; %d events stored", again, e.LastSeq()-before)
	}
	u := e.user(ada, "nina")
	if !u.Pending || u.Invitation == nil || u.Invitation.Status != "open" || u.Invitation.Reset || !slices.Equal(u.Roles, []string{"editor"}) {
		t.Fatalf("nina invited: %+v", u)
	}

	// The person takes up the link and signs in.
	if status, _ := webtest.Accept(t, e.Client(""), link, webtest.Password); status != http.StatusSeeOther {
		t.Fatalf("accept the link: status %d", status)
	}
	nina := e.Client("nina")

	// Roles.
	e.call(ada, http.MethodPost, "/api/v1/users/nina/roles", map[string]any{"role": "reviewer"}, nil, http.StatusOK, nil)
	e.call(ada, http.MethodDelete, "/api/v1/users/nina/roles/editor", nil, nil, http.StatusOK, nil)
	u = e.user(ada, "nina")
	if u.Pending || u.Invitation != nil || !slices.Equal(u.Roles, []string{"reviewer"}) {
		t.Fatalf("nina after the roles: %+v", u)
	}

	// A token: shown once; the same key again shows none.
	var tok api.IssuedToken
	e.call(nina, http.MethodPost, "/api/v1/account/tokens", map[string]any{"name": "ci", "expires_days": 30}, key("ci-token"), http.StatusCreated, &tok)
	if !strings.HasPrefix(tok.Token, "crk_") || tok.ID == "" || tok.ExpiresAt == "" || tok.Name != "ci" {
		t.Fatalf("token: %+v", tok)
	}
	var tokAgain api.IssuedToken
	e.call(nina, http.MethodPost, "/api/v1/account/tokens", map[string]any{"name": "ci", "expires_days": 30}, key("ci-token"), http.StatusCreated, &tokAgain)
	if !tokAgain.Replayed || tokAgain.Token != "" {
		t.Errorf("the token sent again: %+v", tokAgain)
	}
	// The token signs nina in, and lists without its secret.
	var me api.User
	body := e.call(e.Client(""), http.MethodGet, "/api/v1/account", nil, bearer(tok.Token), http.StatusOK, &me)
	if me.Username != "nina" || len(me.Tokens) != 1 || me.Tokens[0].ID != tok.ID || me.Tokens[0].Status != "active" || strings.Contains(body, tok.Token) {
		t.Fatalf("GET /api/v1/account by token: %s", body)
	}
	// A token alone never changes the password, even with the current one.
	before = e.LastSeq()
	refused := e.call(e.Client(""), http.MethodPost, "/api/v1/account/password", map[string]any{"current_password": webtest.Password, "new_password": "a brand new passphrase"},
		bearer(tok.Token), http.StatusForbidden, nil)
	if !strings.Contains(refused, "not with an API token") {
		t.Errorf("a password change by token: %s, want the words saying why", refused)
	}
	if e.LastSeq() != before {
		t.Error("a password change by token stored events")
	}
	// Revoke: the token stops working.
	e.call(nina, http.MethodDelete, "/api/v1/account/tokens/"+tok.ID, nil, nil, http.StatusOK, nil)
	e.call(e.Client(""), http.MethodGet, "/api/v1/account", nil, bearer(tok.Token), http.StatusUnauthorized, nil)
	var list struct{ Tokens []api.Token }
	e.call(nina, http.MethodGet, "/api/v1/account/tokens", nil, nil, http.StatusOK, &list)
	if len(list.Tokens) != 1 || list.Tokens[0].Status != "revoked" {
		t.Errorf("tokens after the revoke: %+v", list.Tokens)
	}

	// The password, by the session: the current one is checked, and the
	// session stays signed in.
	other := e.Client("nina")
	prob := e.refuses(nina, "/api/v1/account/password", map[string]any{"current_password": "wrong", "new_password": "a brand new passphrase"}, http.StatusUnprocessableEntity)
	if len(prob.Errors) != 1 || prob.Errors[0].Field != "current_password" {
		t.Errorf("a wrong current password: %+v", prob.Errors)
	}
	e.call(nina, http.MethodPost, "/api/v1/account/password", map[string]any{"current_password": webtest.Password, "new_password": "a brand new passphrase",
		"confirm_password": "a brand new passphrase"}, nil, http.StatusOK, nil)
	if !nina.SignedIn() || other.SignedIn() {
		t.Errorf("after the change: this session signed in %v (want true), the other %v (want false)", nina.SignedIn(), other.SignedIn())
	}

	// Reset: nina's sessions end, her new token is revoked, and a new link
	// is answered once.
	e.call(nina, http.MethodPost, "/api/v1/account/tokens", map[string]any{"name": "second"}, nil, http.StatusCreated, &tok)
	var reset api.IssuedLink
	e.call(ada, http.MethodPost, "/api/v1/users/nina/password-reset", nil, key("reset-nina"), http.StatusOK, &reset)
	if reset.Username != "nina" || reset.Link == "" {
		t.Fatalf("reset: %+v", reset)
	}
	if nina.SignedIn() {
		t.Error("nina's session outlived the reset")
	}
	e.call(e.Client(""), http.MethodGet, "/api/v1/account", nil, bearer(tok.Token), http.StatusUnauthorized, nil)
	var resetAgain api.IssuedLink
	e.call(ada, http.MethodPost, "/api/v1/users/nina/password-reset", nil, key("reset-nina"), http.StatusOK, &resetAgain)
	if !resetAgain.Replayed || resetAgain.Link != "" {
		t.Errorf("the reset sent again: %+v", resetAgain)
	}
	u = e.user(ada, "nina")
	if !u.Pending || u.Invitation == nil || !u.Invitation.Reset || u.Invitation.Status != "open" || u.Tokens[0].Status != "revoked" {
		t.Fatalf("nina after the reset: %+v", u)
	}

	// Revoking the link: it no longer opens, and there is none to revoke.
	e.call(ada, http.MethodDelete, "/api/v1/users/nina/invitation", nil, nil, http.StatusOK, nil)
	u = e.user(ada, "nina")
	if u.Invitation == nil || u.Invitation.Status != "revoked" {
		t.Errorf("nina's link after the revoke: %+v", u.Invitation)
	}
	e.call(ada, http.MethodDelete, "/api/v1/users/nina/invitation", nil, nil, http.StatusConflict, nil)
}

// TestAPIUsersList pages the users by name with their total.
func TestAPIUsersList(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	ada := e.Client("ada")
	var all api.UserList
	e.call(ada, http.MethodGet, "/api/v1/users", nil, nil, http.StatusOK, &all)
	if all.Total < len(webtest.AdminUsers) || len(all.Users) != all.Total || all.Page != 1 || all.Next != 0 {
		t.Fatalf("one page of every user: total %d, %d users, page %d, next %d", all.Total, len(all.Users), all.Page, all.Next)
	}
	var names []string
	for q := "?limit=2"; ; {
		var page api.UserList
		e.call(ada, http.MethodGet, "/api/v1/users"+q, nil, nil, http.StatusOK, &page)
		if page.Total != all.Total || len(page.Users) > 2 {
			t.Fatalf("page %s: total %d, %d users", q, page.Total, len(page.Users))
		}
		for _, u := range page.Users {
			names = append(names, u.Username)
		}
		if page.Next == 0 {
			break
		}
		q = "?limit=2&page=" + strconv.Itoa(page.Next)
	}
	if len(names) != all.Total || !slices.IsSorted(names) {
		t.Errorf("paged %v: want the %d users by name", names, all.Total)
	}
	var beyond api.UserList
	e.call(ada, http.MethodGet, "/api/v1/users?page=99", nil, nil, http.StatusOK, &beyond)
	if len(beyond.Users) != 0 || beyond.Next != 0 {
		t.Errorf("beyond the last page: %+v", beyond)
	}
	e.call(ada, http.MethodGet, "/api/v1/users?limit=lots", nil, nil, http.StatusBadRequest, nil)
	e.call(ada, http.MethodGet, "/api/v1/users?page=0", nil, nil, http.StatusBadRequest, nil)
}

// TestAPIUsersRefusals: the desk's rules hold at the API's door, and a
// refused request stores nothing.
func TestAPIUsersRefusals(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	ada, ed := e.Client("ada"), e.Client("ed")

	// Not an admin: 403 on every admin route.
	e.call(ed, http.MethodGet, "/api/v1/users", nil, nil, http.StatusForbidden, nil)
	e.call(ed, http.MethodGet, "/api/v1/users/rev", nil, nil, http.StatusForbidden, nil)
	e.refuses(ed, "/api/v1/users", map[string]any{"username": "mal", "roles": []string{"admin"}}, http.StatusForbidden)
	e.refuses(ed, "/api/v1/users/ed/roles", map[string]any{"role": "publisher"}, http.StatusForbidden)
	e.refuses(ed, "/api/v1/users/rev/password-reset", map[string]any{}, http.StatusForbidden)
	// Signed out: 401.
	e.call(e.Client(""), http.MethodGet, "/api/v1/users", nil, nil, http.StatusUnauthorized, nil)
	e.refuses(e.Client(""), "/api/v1/account/tokens", map[string]any{"name": "x"}, http.StatusUnauthorized)

	// Nobody acts as someone else: no self-grant, no own reset, no token
	// of someone else's revoked by a non-admin.
	e.refuses(ada, "/api/v1/users/ada/roles", map[string]any{"role": "publisher"}, http.StatusForbidden)
	e.refuses(ada, "/api/v1/users/ada/password-reset", map[string]any{}, http.StatusForbidden)
	var tok api.IssuedToken
	e.call(ed, http.MethodPost, "/api/v1/account/tokens", map[string]any{"name": "eds"}, nil, http.StatusCreated, &tok)
	before := e.LastSeq()
	e.call(e.Client("rev"), http.MethodDelete, "/api/v1/users/ed/tokens/"+tok.ID, nil, nil, http.StatusForbidden, nil)
	e.call(e.Client("rev"), http.MethodDelete, "/api/v1/account/tokens/"+tok.ID, nil, nil, http.StatusNotFound, nil)
	if e.LastSeq() != before {
		t.Error("a refused token revoke stored events")
	}
	e.call(ada, http.MethodDelete, "/api/v1/users/ed/tokens/"+tok.ID, nil, nil, http.StatusOK, nil)

	// Nobody but its owner knows a password.
	e.refuses(ada, "/api/v1/users", map[string]any{"username": "pw", "password": "chosen by the admin"}, http.StatusForbidden)
	e.refuses(ada, "/api/v1/users/ed/password-reset", map[string]any{"new_password": "chosen by the admin"}, http.StatusForbidden)

	// Unknown users: 404.
	e.call(ada, http.MethodGet, "/api/v1/users/nobody", nil, nil, http.StatusNotFound, nil)
	e.call(ada, http.MethodGet, "/api/v1/users/Not%20A%20Name", nil, nil, http.StatusNotFound, nil)
	e.refuses(ada, "/api/v1/users/nobody/roles", map[string]any{"role": "editor"}, http.StatusNotFound)
	e.refuses(ada, "/api/v1/users/nobody/password-reset", map[string]any{}, http.StatusNotFound)

	// Invalid input names the field: 422 for a bad value, 400 for a body
	// that is not one.
	for _, c := range []struct {
		target string
		body   any
		field  string
	}{
		{"/api/v1/users/ed/roles", map[string]any{"role": "king"}, "role"},
		{"/api/v1/users", map[string]any{"username": "newbie", "roles": []string{"editor", "king"}}, "roles"},
		{"/api/v1/users", map[string]any{"username": "No Spaces"}, "username"},
		{"/api/v1/account/tokens", map[string]any{"name": "long", "expires_days": 99999}, "expires_days"},
	} {
		prob := e.refuses(ada, c.target, c.body, http.StatusUnprocessableEntity)
		if len(prob.Errors) != 1 || prob.Errors[0].Field != c.field {
			t.Errorf("POST %s %v: %+v, want the field %s", c.target, c.body, prob.Errors, c.field)
		}
	}
	for _, c := range []struct {
		target, body, field string
	}{
		{"/api/v1/users", `{"username": "dup", "username": "dup2"}`, "username"},
		{"/api/v1/users/ed/roles", `{"role": 7}`, "role"},
		{"/api/v1/account/tokens", `{"name": "x", "secret": "mine"}`, "secret"},
	} {
		prob := e.refuses(ada, c.target, c.body, http.StatusBadRequest)
		if len(prob.Errors) != 1 || prob.Errors[0].Field != c.field {
			t.Errorf("POST %s %s: %+v, want the field %s", c.target, c.body, prob.Errors, c.field)
		}
	}
	// The state: a role held, a role not held, a user who exists.
	e.refuses(ada, "/api/v1/users/ed/roles", map[string]any{"role": "editor"}, http.StatusConflict)
	e.call(ada, http.MethodDelete, "/api/v1/users/ed/roles/publisher", nil, nil, http.StatusConflict, nil)
	e.refuses(ada, "/api/v1/users", map[string]any{"username": "ed"}, http.StatusConflict)
	// An admin keeps their own admin role.
	e.call(ada, http.MethodDelete, "/api/v1/users/ada/roles/admin", nil, nil, http.StatusConflict, nil)
}
