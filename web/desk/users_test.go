package desk_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

func TestUsersPageIsForAdmins(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	for _, user := range []string{"ed", "rev", "pat"} {
		c := e.Client(user)
		e.Get(c, paths.Users, http.StatusForbidden)
		before := e.LastSeq()
		for target, form := range map[string]url.Values{
			paths.Users: {"username": {"mallory"}, "password": {webtest.Password}, "roles": {domain.RolePublisher}},
			paths.Users + "/" + user + "/roles/grant": {"role": {domain.RolePublisher}},
			paths.Users + "/ed/tokens":                {"name": {"stolen"}},
			paths.Users + "/ed/password":              {"new_password": {"taken over!"}},
			paths.Users + "/ed/tokens/t1/revoke":      {},
		} {
			form.Set("cmd_id", events.NewID(e.Cmd.Now()))
			if status, _, _ := e.Post(c, target, form); status != http.StatusForbidden {
				t.Errorf("%s POST %s: status %d, want 403", user, target, status)
			}
		}
		if after := e.LastSeq(); after != before {
			t.Errorf("%s's refused forms appended events: %d → %d", user, before, after)
		}
	}
	// The nav shows the page to admins only.
	for user, want := range map[string]int{"ed": 0, "pat": 0, "ada": 1} {
		if doc := e.Get(e.Client(user), paths.Audit, http.StatusOK); webtest.ByTestID(doc, "nav-users").Length() != want {
			t.Errorf("%s's nav: %d links to the users page, want %d", user, webtest.ByTestID(doc, "nav-users").Length(), want)
		}
	}
}

// TestAddUserInvites: adding a user issues a one-time link, shown once;
// the account cannot sign in until its owner chooses a password on it,
// and the form takes no password at all.
func TestAddUserInvites(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	c := e.Client("ada")
	doc := e.Get(c, paths.Users, http.StatusOK)
	if webtest.ByTestID(doc, "user-ed").Length() != 1 || webtest.ByTestID(doc, "user-reviewer1").Length() != 1 {
		t.Fatal("the users page does not list every user")
	}
	form := webtest.FormValues(webtest.ByTestID(doc, "user-add-form"))
	if _, has := form["password"]; has {
		t.Error("the add form asks the admin for a password")
	}

	// A password sent anyway is refused, in the reader's language; nothing is stored.
	bad := url.Values{"cmd_id": form["cmd_id"], "username": {"newbie"}, "password": {webtest.Password}}
	before := e.LastSeq()
	status, _, page := e.Post(c, paths.Users, bad)
	if status != http.StatusForbidden || !strings.Contains(webtest.ByTestID(page, "form-error").Text(), "Only its owner chooses a password") {
		t.Errorf("a chosen password: status %d, %q", status, webtest.ByTestID(page, "form-error").Text())
	}
	if got, _ := page.Find("#new-username").Attr("value"); got != "newbie" {
		t.Errorf("the form lost the username: %q", got)
	}
	res, body := c.PostForm(paths.Users+"?lang=zh", bad)
	if msg := webtest.ByTestID(webtest.Doc(t, body), "form-error").Text(); res.StatusCode != http.StatusForbidden || !strings.Contains(msg, "密码只能由本人设置") {
		t.Errorf("a chosen password in Chinese: %q", msg)
	}
	if e.LastSeq() != before {
		t.Error("a refused form appended events")
	}
	delete(c.Cookies, i18n.Cookie) // back to English

	form.Set("username", "newbie")
	form.Set("display_name", "New Bie")
	form["roles"] = []string{domain.RoleEditor, domain.RoleReviewer}
	status, _, page = e.Post(c, paths.Users, form)
	if status != http.StatusOK {
		t.Fatalf("add user: status %d, %q", status, webtest.ByTestID(page, "form-error").Text())
	}
	link := webtest.LinkOf(t, page)
	added := e.LastSeq()
	// A double submit stores one event and shows no link.
	if status, _, page := e.Post(c, paths.Users, form); status != http.StatusOK || e.LastSeq() != added ||
		webtest.ByTestID(page, "link-already").Length() != 1 || webtest.ByTestID(page, "link-url").Length() != 0 {
		t.Errorf("double submit: status %d, sequence %d → %d", status, added, e.LastSeq())
	}
	e.CaughtUp()
	doc = e.Get(c, paths.Users, http.StatusOK)
	row := webtest.ByTestID(doc, "user-newbie")
	for role, want := range map[string]string{domain.RoleEditor: "true", domain.RoleReviewer: "true", domain.RolePublisher: "false"} {
		if got, _ := row.Find(`[data-testid="role-newbie-` + role + `"]`).Attr("data-held"); got != want {
			t.Errorf("newbie %s held=%q, want %s", role, got, want)
		}
	}
	if st, _ := webtest.ByTestID(doc, "pending-newbie").Attr("data-link"); st != "open" {
		t.Errorf("newbie's link is %q on the users page, want open", st)
	}
	if got := webtest.ByTestID(doc, "account-log-newbie").Text(); !strings.Contains(got, "ada: Invited user newbie (editor, reviewer)") {
		t.Errorf("who invited newbie: %q", got)
	}
	// A taken name is refused with the domain's message.
	form.Set("cmd_id", events.NewID(e.Cmd.Now()))
	status, _, page = e.Post(c, paths.Users, form)
	if status != http.StatusConflict || !strings.Contains(webtest.ByTestID(page, "form-error").Text(), "already exists") {
		t.Errorf("taken name: status %d, %q", status, webtest.ByTestID(page, "form-error").Text())
	}

	// Nobody signs in before the owner chose a password: no password works.
	for _, pw := range []string{"", webtest.Password, "unused"} {
		if res, _ := e.Client("").PostForm(paths.Login, url.Values{"username": {"newbie"}, "password": {pw}}); res.StatusCode != http.StatusUnauthorized {
			t.Errorf("pending account signs in with %q: status %d", pw, res.StatusCode)
		}
	}
	// The link's form explains a short or mismatched password, in both languages.
	nb := e.Client("")
	wf := webtest.FormValues(webtest.ByTestID(e.Get(nb, link, http.StatusOK), "welcome-form"))
	wf.Set("password", "short")
	wf.Set("confirm_password", "short")
	if status, _, page := e.Post(nb, paths.Welcome, wf); status != http.StatusUnprocessableEntity ||
		!strings.Contains(webtest.ByTestID(page, "field-error-password").Text(), "8 to 1024") {
		t.Errorf("short password: status %d, %q", status, webtest.ByTestID(page, "field-error-password").Text())
	}
	if res, body := nb.PostForm(paths.Welcome+"?lang=zh", wf); res.StatusCode != http.StatusUnprocessableEntity ||
		!strings.Contains(webtest.ByTestID(webtest.Doc(t, body), "field-error-password").Text(), "字节") {
		t.Errorf("short password in Chinese: %d", res.StatusCode)
	}
	delete(nb.Cookies, i18n.Cookie)
	wf.Set("password", webtest.Password)
	wf.Set("confirm_password", webtest.Password+"!")
	if status, _, _ := e.Post(nb, paths.Welcome, wf); status != http.StatusUnprocessableEntity {
		t.Errorf("mismatched password: status %d", status)
	}
	if status, loc := webtest.Accept(t, nb, link, webtest.Password); status != http.StatusSeeOther || loc != paths.Login+"?welcome=1" {
		t.Fatalf("accept: status %d, Location %q", status, loc)
	}
	// The link works once.
	if status, _ := webtest.Accept(t, e.Client(""), link, "another password"); status != http.StatusNotFound {
		t.Errorf("the link used again: status %d, want 404", status)
	}
	e.CaughtUp()
	doc = e.Get(e.Client("newbie"), paths.Account, http.StatusOK) // signs in with the password newbie chose
	if webtest.ByTestID(doc, "account-role-editor").Length() != 1 || webtest.ByTestID(doc, "account-role-publisher").Length() != 0 {
		t.Errorf("newbie's roles: %q", webtest.ByTestID(doc, "account-roles").Text())
	}
}

func TestGrantAndRevokeRoles(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	c := e.Client("ada")
	held := func(user, role string) string {
		t.Helper()
		v, _ := webtest.ByTestID(e.Get(c, paths.Users, http.StatusOK), "role-"+user+"-"+role).Attr("data-held")
		return v
	}
	doc := e.Get(c, paths.Users, http.StatusOK)
	grant := webtest.FormValues(webtest.ByTestID(doc, "grant-ed-reviewer").Closest("form"))
	status, loc, _ := e.Post(c, paths.Users+"/ed/roles/grant", grant)
	if status != http.StatusSeeOther || loc != paths.Users+"?done=granted#user-ed" {
		t.Fatalf("grant: status %d, Location %q", status, loc)
	}
	if held("ed", domain.RoleReviewer) != "true" {
		t.Error("the page does not show the granted role")
	}
	if u, _ := e.Cmd.User(e.Ctx, "ed"); !slices.Contains(u.Roles, domain.RoleReviewer) {
		t.Errorf("ed's roles %v", u.Roles)
	}
	// Granting again with the same form is a retry, not a second grant.
	if status, _, _ := e.Post(c, paths.Users+"/ed/roles/grant", grant); status != http.StatusSeeOther {
		t.Errorf("retried grant: status %d", status)
	}

	revoke := webtest.FormValues(webtest.ByTestID(e.Get(c, paths.Users, http.StatusOK), "revoke-ed-reviewer").Closest("form"))
	if status, _, _ := e.Post(c, paths.Users+"/ed/roles/revoke", revoke); status != http.StatusSeeOther {
		t.Fatalf("revoke: status %d", status)
	}
	if held("ed", domain.RoleReviewer) != "false" {
		t.Error("the page still shows the revoked role")
	}
	if u, _ := e.Cmd.User(e.Ctx, "ed"); slices.Contains(u.Roles, domain.RoleReviewer) {
		t.Errorf("ed's roles %v", u.Roles)
	}

	// An admin cannot drop their own admin role; the page says why.
	own := webtest.FormValues(webtest.ByTestID(e.Get(c, paths.Users, http.StatusOK), "revoke-ada-admin").Closest("form"))
	status, _, page := e.Post(c, paths.Users+"/ada/roles/revoke", own)
	if status != http.StatusConflict || !strings.Contains(page.Find(`#user-ada [data-testid="form-error"]`).Text(), "own admin role") {
		t.Errorf("revoking one's own admin role: status %d, %q", status, webtest.ByTestID(page, "form-error").Text())
	}
	// Nor grant themself a role: that would make them a reviewer unseen.
	before := e.LastSeq()
	self := webtest.FormValues(webtest.ByTestID(e.Get(c, paths.Users, http.StatusOK), "grant-ada-reviewer").Closest("form"))
	status, _, page = e.Post(c, paths.Users+"/ada/roles/grant", self)
	if status != http.StatusForbidden || !strings.Contains(page.Find(`#user-ada [data-testid="form-error"]`).Text(), "cannot grant yourself") {
		t.Errorf("granting oneself a role: status %d, %q", status, webtest.ByTestID(page, "form-error").Text())
	}
	if e.LastSeq() != before {
		t.Error("a refused self-grant appended events")
	}
	// Revoking a role the user does not hold, or granting an unknown one.
	if status, _, _ := e.Post(c, paths.Users+"/ed/roles/revoke", url.Values{"cmd_id": {events.NewID(e.Cmd.Now())}, "role": {domain.RolePublisher}}); status != http.StatusConflict {
		t.Errorf("revoking a role not held: status %d", status)
	}
	if status, _, _ := e.Post(c, paths.Users+"/ed/roles/grant", url.Values{"cmd_id": {events.NewID(e.Cmd.Now())}, "role": {"owner"}}); status != http.StatusUnprocessableEntity {
		t.Errorf("granting an unknown role: status %d", status)
	}
}

// tokenIDOf returns the id inside a full token crk_<id>_<secret>.
func tokenIDOf(t *testing.T, full string) string {
	t.Helper()
	id, ok := auth.ParseToken(full)
	if !ok {
		t.Fatalf("not a token: %q", full)
	}
	return id
}

// TestTokenShownOnceWorksAndRevokes: ed issues a token on their account
// page; it is shown once, works on the API as ed, and an admin revokes it.
func TestTokenShownOnceWorksAndRevokes(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	ed, ada := e.Client("ed"), e.Client("ada")
	form := webtest.FormValues(webtest.ByTestID(e.Get(ed, paths.Account, http.StatusOK), "token-form-ed"))
	form.Set("name", "ci")
	form.Set("expires_days", "30")
	res, body := ed.PostForm(paths.Account+"/tokens", form)
	doc := webtest.Doc(t, body)
	full := strings.TrimSpace(webtest.ByTestID(doc, "token-secret").Text())
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(full, "crk_") {
		t.Fatalf("issue: status %d, token %q", res.StatusCode, full)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("the token page may be cached: %q", cc)
	}
	issued := e.LastSeq()
	// Sending the form again stores nothing and shows no token.
	res, body = ed.PostForm(paths.Account+"/tokens", form)
	doc = webtest.Doc(t, body)
	if res.StatusCode != http.StatusOK || webtest.ByTestID(doc, "token-already").Length() != 1 || webtest.ByTestID(doc, "token-secret").Length() != 0 {
		t.Errorf("resubmit: status %d, %q", res.StatusCode, doc.Find("main").Text())
	}
	if e.LastSeq() != issued {
		t.Error("a resubmitted token form appended events")
	}
	// The admin's users page lists it, never its secret.
	id := tokenIDOf(t, full)
	users := e.Get(ada, paths.Users, http.StatusOK)
	if st, _ := webtest.ByTestID(users, "token-"+id).Attr("data-status"); st != "active" {
		t.Errorf("token listed as %q", st)
	}
	if strings.Contains(users.Text(), full[len(full)-20:]) {
		t.Error("the users page shows the secret")
	}

	// It works as a bearer token on the API, as ed.
	api := e.Client("")
	bearer := http.Header{"Authorization": {"Bearer " + full}}
	res, body = api.Do(http.MethodGet, "/api/v1/audit?actor=ed", nil, bearer)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("bearer read: status %d, %.200s", res.StatusCode, body)
	}
	res, body = api.PostJSON("/api/v1/proposals", map[string]any{"ranking": demo.RankingSlug, "entry": "aliyun",
		"title": "Via the API"}, bearer)
	var cr command.Response
	if res.StatusCode != http.StatusCreated || json.Unmarshal([]byte(body), &cr) != nil {
		t.Fatalf("bearer write: status %d, %.200s", res.StatusCode, body)
	}
	if p, _ := e.Cmd.Proposal(e.Ctx, cr.ID); p.Author != "ed" {
		t.Errorf("the API wrote as %q, want ed", p.Author)
	}

	// Revoked, it is refused.
	revoke := webtest.FormValues(webtest.ByTestID(users, "revoke-token-"+id).Closest("form"))
	status, loc, _ := e.Post(ada, paths.Users+"/ed/tokens/"+id+"/revoke", revoke)
	if status != http.StatusSeeOther || !strings.Contains(loc, "done=token_revoked") {
		t.Fatalf("revoke: status %d, Location %q", status, loc)
	}
	if st, _ := webtest.ByTestID(e.Get(ada, paths.Users, http.StatusOK), "token-"+id).Attr("data-status"); st != "revoked" {
		t.Errorf("revoked token listed as %q", st)
	}
	if res, _ := api.Do(http.MethodGet, "/api/v1/audit", nil, bearer); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("revoked token: status %d, want 401", res.StatusCode)
	}
	// A bad validity is explained next to the field.
	bad := webtest.FormValues(webtest.ByTestID(e.Get(ed, paths.Account, http.StatusOK), "token-form-ed"))
	bad.Set("name", "forever")
	bad.Set("expires_days", "99999")
	status, _, page := e.Post(ed, paths.Account+"/tokens", bad)
	if status != http.StatusUnprocessableEntity || webtest.ByTestID(page, "field-error-expires_days").Length() != 1 {
		t.Errorf("bad validity: status %d", status)
	}
}

func TestAccountPasswordAndOwnTokens(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	c := e.Client("ed")
	doc := e.Get(c, paths.Account, http.StatusOK)
	form := webtest.FormValues(webtest.ByTestID(doc, "password-form"))
	const newPassword = "a new and longer passphrase"
	tests := []struct {
		name           string
		current, fresh string
		confirm        string
		field          string
	}{
		{"wrong current password", "not my password", newPassword, newPassword, "current_password"},
		{"confirmation differs", webtest.Password, newPassword, newPassword + "!", "confirm_password"},
		{"too short", webtest.Password, "short", "short", "new_password"},
	}
	before := e.LastSeq()
	for _, tc := range tests {
		form.Set("current_password", tc.current)
		form.Set("new_password", tc.fresh)
		form.Set("confirm_password", tc.confirm)
		status, _, page := e.Post(c, paths.Account+"/password", form)
		if status != http.StatusUnprocessableEntity || webtest.ByTestID(page, "field-error-"+tc.field).Length() != 1 {
			t.Errorf("%s: status %d, errors %q", tc.name, status, page.Find(".field-error").Text())
		}
		if page.Find(`input[type=password][value]`).Length() != 0 {
			t.Errorf("%s: a password is echoed back", tc.name)
		}
	}
	if e.LastSeq() != before {
		t.Error("refused password changes appended events")
	}
	form.Set("current_password", webtest.Password)
	form.Set("new_password", newPassword)
	form.Set("confirm_password", newPassword)
	if status, loc, _ := e.Post(c, paths.Account+"/password", form); status != http.StatusSeeOther || loc != paths.Account+"?done=password" {
		t.Fatalf("change: status %d, Location %q", status, loc)
	}
	fresh := e.Client("")
	if res, _ := fresh.PostForm(paths.Login, url.Values{"username": {"ed"}, "password": {webtest.Password}}); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("the old password still signs in: status %d", res.StatusCode)
	}
	if res, _ := fresh.PostForm(paths.Login, url.Values{"username": {"ed"}, "password": {newPassword}}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("the new password does not sign in: status %d", res.StatusCode)
	}

	// Own tokens: issue, see it listed, revoke it.
	tf := webtest.FormValues(webtest.ByTestID(e.Get(c, paths.Account, http.StatusOK), "token-form-ed"))
	tf.Set("name", "laptop")
	tf.Set("expires_days", "0")
	_, body := c.PostForm(paths.Account+"/tokens", tf)
	full := strings.TrimSpace(webtest.ByTestID(webtest.Doc(t, body), "token-secret").Text())
	id := tokenIDOf(t, full)
	doc = e.Get(c, paths.Account, http.StatusOK)
	tok := webtest.ByTestID(doc, "token-"+id)
	if st, _ := tok.Attr("data-status"); st != "active" || !strings.Contains(tok.Text(), "does not expire") {
		t.Errorf("own token: %q %q", st, tok.Text())
	}
	revoke := webtest.FormValues(webtest.ByTestID(doc, "revoke-token-"+id).Closest("form"))
	if status, _, _ := e.Post(c, paths.Account+"/tokens/"+id+"/revoke", revoke); status != http.StatusSeeOther {
		t.Errorf("revoke own token: status %d", status)
	}
	if res, _ := e.Client("").Do(http.MethodGet, "/api/v1/audit", nil, http.Header{"Authorization": {"Bearer " + full}}); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("revoked own token: status %d", res.StatusCode)
	}
	// Someone else's token cannot be revoked from one's account.
	patTok := webtest.FormValues(webtest.ByTestID(e.Get(e.Client("pat"), paths.Account, http.StatusOK), "token-form-pat"))
	patTok.Set("name", "pat's")
	pc := e.Client("pat")
	_, body = pc.PostForm(paths.Account+"/tokens", patTok)
	patID := tokenIDOf(t, strings.TrimSpace(webtest.ByTestID(webtest.Doc(t, body), "token-secret").Text()))
	before = e.LastSeq()
	if status, _, _ := e.Post(c, paths.Account+"/tokens/"+patID+"/revoke", url.Values{"cmd_id": {events.NewID(e.Cmd.Now())}}); status != http.StatusNotFound {
		t.Errorf("revoking another's token: status %d, want 404", status)
	}
	if e.LastSeq() != before {
		t.Error("revoking another's token appended events")
	}
}
