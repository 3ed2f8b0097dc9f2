package desk

import (
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// serveUsers lists the users with their roles and tokens.
func (d *Desk) serveUsers(w http.ResponseWriter, r *http.Request) {
	d.RenderUsers(w, r, http.StatusOK, "", ui.FormState{})
}

// usersView is the model of the users page.
type usersView struct {
	ui.Page
	Users  []userRowView
	Roles  []roleCell // the add form's role checkboxes
	Failed string     // the form that failed: "add", "roles", "password", "tokens", "token"
	State  ui.FormState
	Target string // the user whose form failed
	Pager  ui.Pager
}

// StateFor returns the failed state of form (of user, for a per-user form).
func (v usersView) StateFor(form, user string) ui.FormState {
	if v.Failed == form && v.Target == user {
		return v.State
	}
	return ui.FormState{}
}

// userRowView is one user with the forms acting on them.
type userRowView struct {
	Username    string
	DisplayName string
	Roles       []roleCell
	Tokens      []tokenView
	Self        bool
	Pending     bool     // no password chosen yet
	LinkStatus  string   // with Pending: "open", "expired" or "none" (revoked)
	LinkText    string   // the link's state in words
	Log         []string // what others did to the account, newest first, worded
}

// roleCell is one role: held or not, with its label.
type roleCell struct {
	Value string
	Label string
	Held  bool
}

// tokenView is an API token as listed: never its secret or hash.
type tokenView struct {
	ID        string
	Name      string
	Issued    string
	Expires   string // "" when it does not expire
	Status    string // "active", "revoked", "expired"
	Label     string
	Revocable bool
}

// RenderUsers shows the users page with status; st is the state of the
// form formID after a failed submit ("" for none), of the user in the
// request's path for a per-user form.
func (d *Desk) RenderUsers(w http.ResponseWriter, r *http.Request, status int, formID string, st ui.FormState) {
	ctx := r.Context()
	v := usersView{Page: ui.PageOf(r, "users.title", "users"), Failed: formID, State: st, Target: r.PathValue("name")}
	v.Notice = doneNotice(v.Lang, "users", r)
	// The page's users alone are read, with their tokens and account log.
	page := ui.RequestedPage(r.URL.Query())
	users, total, err := d.read.UsersPage(ctx, page, userRows)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	v.Pager = ui.NewPager(total, page, userRows, func(n int) string { return ui.PageHref(r.URL, n) })
	if v.Pager.Beyond() {
		ui.Fail(w, r, projections.ErrNotFound)
		return
	}
	names := make([]string, len(users))
	for i, u := range users {
		names[i] = u.Username
	}
	tokens, err := d.read.TokensOf(ctx, names)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	logs, err := d.accountLogs(ctx, v.Page, names)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	for _, u := range users {
		row := userRowView{Username: u.Username, DisplayName: u.DisplayName, Self: u.Username == v.User.Username,
			Roles: roleCells(v.Page, u.Roles), Log: logs[u.Username]}
		if err := d.linkState(ctx, v.Page, &row); err != nil {
			ui.Fail(w, r, err)
			return
		}
		for _, t := range tokens {
			if t.Username == u.Username {
				row.Tokens = append(row.Tokens, tokenViewOf(v.Page, t, httpx.Now(ctx)))
			}
		}
		v.Users = append(v.Users, row)
	}
	var chosen []string
	if formID == "add" {
		chosen = st.Values["roles"]
	}
	v.Roles = roleCells(v.Page, chosen)
	ui.Render(w, r, status, usersPage(v))
}

// userRows is how many users a page of the users page lists.
const userRows = 50

func roleCells(p ui.Page, held []string) []roleCell {
	out := make([]roleCell, 0, len(domain.Roles))
	for _, role := range domain.Roles {
		out = append(out, roleCell{Value: role, Label: p.RoleLabel(role), Held: slices.Contains(held, role)})
	}
	return out
}

func tokenViewOf(p ui.Page, t projections.TokenRow, now time.Time) tokenView {
	v := tokenView{ID: t.ID, Name: t.Name, Issued: p.DateTime(t.IssuedAt), Status: "active"}
	if !t.ExpiresAt.IsZero() {
		v.Expires = p.DateTime(t.ExpiresAt)
	}
	switch {
	case t.Revoked:
		v.Status = "revoked"
	case t.Expired(now):
		v.Status = "expired"
	}
	v.Label = p.T("apitoken.status." + v.Status)
	v.Revocable = !t.Revoked
	return v
}

// doneNotice words the notice after a successful form (?done=<key>); an
// unknown key shows nothing, so the query cannot put words on the page.
func doneNotice(lang, page string, r *http.Request) string {
	done := r.URL.Query().Get("done")
	if done == "" {
		return ""
	}
	key := page + ".done." + done
	if !i18n.Has(key) {
		return ""
	}
	return i18n.T(lang, key)
}

// userActionURL is the address of a form acting on user (rest names the
// action: "roles/grant", "tokens").
func userActionURL(user, rest string) string {
	return paths.Users + "/" + url.PathEscape(user) + "/" + rest
}

// auditURLForActor is the audit trail of one user's actions.
func auditURLForActor(user string) string { return paths.Audit + "?actor=" + url.QueryEscape(user) }
