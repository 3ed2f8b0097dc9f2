package desk_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// Separation of duties on the demo desk: user administration belongs to
// the admin, who has no editorial right; nobody acts as someone else.

// TestNobodyIssuesAnothersToken is issue 12's report: a publisher posting
// to /desk/users/reviewer1/tokens got reviewer1's token and could vote as
// them. Now it is refused, for a publisher and for an admin alike, and no
// event is stored.
func TestNobodyIssuesAnothersToken(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	form := url.Values{"name": {"mine now"}, "expires_days": {"30"}}
	for _, who := range []string{"publisher", "admin"} {
		doc := e.Refused(e.Client(who), paths.Users+"/reviewer1/tokens", form, http.StatusForbidden)
		if webtest.TestCount(doc, "token-secret") != 0 {
			t.Errorf("%s was shown a token for reviewer1", who)
		}
		if who == "admin" && !strings.Contains(doc.Text(), "only be issued by its own user") {
			t.Errorf("the admin is not told why: %.300q", webtest.TestText(doc, "form-error"))
		}
	}
	// The users page offers the form on the admin's own row only.
	doc := e.Page(e.Client("admin"), paths.Users, http.StatusOK)
	if webtest.TestCount(doc, "token-form-reviewer1") != 0 || webtest.TestCount(doc, "tokens-own-reviewer1") != 1 || webtest.TestCount(doc, "token-form-admin") != 1 {
		t.Error("the users page offers to issue a token for another user")
	}
	// In Chinese, too.
	zh := e.Client("admin")
	zh.Header.Set("Accept-Language", "zh-CN")
	_, _, doc = e.Post(zh, paths.Users+"/reviewer1/tokens", form)
	if !strings.Contains(doc.Text(), "API 令牌只能由其本人") {
		t.Errorf("no Chinese reason: %.300q", doc.Find("main").Text())
	}
}

// TestAdminHasNoEditorialRights: the admin can neither open, review nor
// publish, on the desk or the API; the publisher cannot administer users.
func TestAdminHasNoEditorialRights(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	adm := e.Client("admin")
	e.Page(adm, paths.Publish, http.StatusForbidden)
	before := e.LastSeq()
	for path, body := range map[string]any{
		"/api/v1/proposals": map[string]any{"ranking": webtest.DemoRanking, "entry": "aliyun", "title": "An admin's change"},
		"/api/v1/proposals/" + webtest.DemoInReview + "/votes": map[string]any{"verdict": "approve", "revision": 1,
			"verified_evidence": []string{"e1"}},
		"/api/v1/proposals/" + webtest.DemoValidated + "/reject": map[string]any{"reason": "no"},
		"/api/v1/rankings/" + webtest.DemoRanking + "/editions":  map[string]any{"proposals": []string{webtest.DemoValidated}, "preview_hash": "x"},
	} {
		if res, body := adm.PostJSON(path, body, nil); res.StatusCode != http.StatusForbidden {
			t.Errorf("admin POST %s: status %d, want 403; %.200s", path, res.StatusCode, body)
		}
	}
	if after := e.LastSeq(); after != before {
		t.Errorf("the admin's refused commands appended %d events", after-before)
	}
	nav := func(user string) (users, publish bool) {
		doc := e.Page(e.Client(user), "/desk/audit", http.StatusOK)
		return webtest.TestCount(doc, "nav-users") == 1, webtest.TestCount(doc, "nav-publish") == 1
	}
	if users, publish := nav("admin"); !users || publish {
		t.Errorf("admin's nav: users %v, publish %v; want users only", users, publish)
	}
	if users, publish := nav("publisher"); users || !publish {
		t.Errorf("publisher's nav: users %v, publish %v; want publish only", users, publish)
	}
	pub := e.Client("publisher")
	e.Page(pub, paths.Users, http.StatusForbidden)
	e.Refused(pub, paths.Users+"/reviewer1/roles/grant", url.Values{"role": {domain.RolePublisher}}, http.StatusForbidden)
	e.Refused(pub, paths.Users+"/reviewer1/password", url.Values{"new_password": {"a brand new password"}}, http.StatusForbidden)
}

// TestAdminPasswordResetEndsSessionsAndTokens: after an admin resets
// reviewer1's password, reviewer1's token answers 401, their private feed
// token is refused, their session is gone and the old password no longer
// signs in; the admin never chose a password: reviewer1 chooses the new one
// on the one-time link the reset shows the admin once.
func TestAdminPasswordResetEndsSessionsAndTokens(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	rev := e.Client("reviewer1")
	tf := webtest.FormValues(webtest.ByTestID(e.Page(rev, paths.Account, http.StatusOK), "token-form-reviewer1"))
	tf.Set("name", "voting script")
	_, body := rev.PostForm(paths.Account+"/tokens", tf)
	full := strings.TrimSpace(webtest.ByTestID(webtest.Doc(t, body), "token-secret").Text())
	bearer := http.Header{"Authorization": {"Bearer " + full}}
	api := e.Client("")
	if res, _ := api.Do(http.MethodGet, "/api/v1/proposals/"+webtest.DemoInReview, nil, bearer); res.StatusCode != http.StatusOK {
		t.Fatalf("the token does not work before the reset: %d", res.StatusCode)
	}
	res, body := rev.PostJSON("/api/v1/inbox/feed-token", map[string]any{}, nil)
	var feed struct{ Feed string }
	if err := json.Unmarshal([]byte(body), &feed); err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("feed token: %d %s", res.StatusCode, body)
	}
	if res, _ := api.Do(http.MethodGet, feed.Feed, nil, nil); res.StatusCode != http.StatusOK {
		t.Fatalf("the feed does not answer before the reset: %d", res.StatusCode)
	}

	adm := e.Client("admin")
	doc := e.Page(adm, paths.Users, http.StatusOK)
	if webtest.TestCount(doc, "password-reset-admin") != 0 {
		t.Error("the admin is offered a reset of their own password")
	}
	// Resetting one's own password here is refused: the account page asks for the current one.
	e.Refused(adm, paths.Users+"/admin/password", url.Values{}, http.StatusForbidden)
	form := webtest.FormValues(webtest.ByTestID(doc, "password-reset-reviewer1"))
	if _, has := form["new_password"]; has {
		t.Error("the reset form asks the admin for a password")
	}
	// The admin cannot choose the new password.
	form.Set("new_password", "a brand new password")
	e.Refused(adm, paths.Users+"/reviewer1/password", form, http.StatusForbidden)
	form.Del("new_password")
	status, _, page := e.Post(adm, paths.Users+"/reviewer1/password", form)
	if status != http.StatusOK {
		t.Fatalf("reset: status %d, %q", status, webtest.TestText(page, "form-error"))
	}
	link := webtest.LinkOf(t, page)

	if res, _ := api.Do(http.MethodGet, "/api/v1/proposals/"+webtest.DemoInReview, nil, bearer); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("reviewer1's token after the reset: status %d, want 401", res.StatusCode)
	}
	if res, _ := api.Do(http.MethodGet, feed.Feed, nil, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("reviewer1's feed token after the reset: status %d, want 404", res.StatusCode)
	}
	if rev.SignedIn() {
		t.Error("reviewer1's session outlived the reset")
	}
	fresh := e.Client("")
	if res, _ := fresh.PostForm(paths.Login, url.Values{"username": {"reviewer1"}, "password": {webtest.Password}}); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("the old password still signs in: status %d", res.StatusCode)
	}
	const newPassword = "a brand new password"
	if status, _ := webtest.Accept(t, e.Client(""), link, newPassword); status != http.StatusSeeOther {
		t.Fatalf("reviewer1 choosing a new password on the link: status %d", status)
	}
	if res, _ := fresh.PostForm(paths.Login, url.Values{"username": {"reviewer1"}, "password": {newPassword}}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("the new password does not sign in: status %d", res.StatusCode)
	}
	e.CaughtUp()
	doc = e.Page(adm, paths.Users, http.StatusOK)
	if st, _ := webtest.ByTestID(doc, "token-"+tokenIDOf(t, full)).Attr("data-status"); st != "revoked" {
		t.Errorf("the users page lists the token as %q", st)
	}
	if got := webtest.TestText(doc, "account-log-reviewer1"); !strings.Contains(got, "admin: Reset the password of reviewer1") ||
		!strings.Contains(got, "reviewer1: Chose a password on the one-time link") {
		t.Errorf("the users page's account log: %q", got)
	}
	// The trail shows the reset, by the admin: one event naming the token
	// and the feed token it revoked.
	var got []string
	_ = e.Read.AuditEach(e.Ctx, projections.AuditFilter{Actor: "admin"}, func(r projections.AuditRow) error {
		got = append(got, r.Type, i18n.AuditLine(i18n.En, r.Msg, r.Args), i18n.AuditLine(i18n.Zh, r.Msg, r.Args))
		return nil
	})
	id := tokenIDOf(t, full)
	if len(got) != 3 || got[0] != events.TypePasswordReset ||
		!strings.HasPrefix(got[1], "Reset the password of reviewer1: sessions ended; revoked API tokens "+id+"; revoked the private inbox feed token; new one-time link valid until ") ||
		!strings.HasPrefix(got[2], "重置 reviewer1 的密码：登录会话已结束；吊销 API 令牌 "+id+"；吊销收件箱私人订阅令牌；新的一次性链接有效期至 ") {
		t.Errorf("the admin's trail: %q", got)
	}
}

// TestAdminCannotMakeSockPuppets is issue 24's probe: an admin adds two
// reviewers and a publisher with passwords it chose, to sign in as each,
// approve and publish alone. No password can be chosen (403, nothing
// stored), and an invited account nobody accepted cannot sign in (401),
// vote or hold a token, so the sequence ends before the first vote.
func TestAdminCannotMakeSockPuppets(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	adm := e.Client("admin")
	puppets := map[string]string{"rev3": domain.RoleReviewer, "rev4": domain.RoleReviewer, "pub2": domain.RolePublisher}
	for name, role := range puppets {
		e.Refused(adm, paths.Users, url.Values{"username": {name}, "password": {"chosen-by-admin"}, "roles": {role}}, http.StatusForbidden)
		if res, _ := e.Client("").PostForm(paths.Login, url.Values{"username": {name}, "password": {"chosen-by-admin"}}); res.StatusCode != http.StatusUnauthorized {
			t.Errorf("sign in as %s: status %d, want 401", name, res.StatusCode)
		}
	}
	// Invited instead, the accounts exist with their roles, and still
	// nobody signs in as them: the admin never knows their password.
	for name, role := range puppets {
		webtest.Invite(t, adm, name, role)
		for _, pw := range []string{"chosen-by-admin", ""} {
			if res, _ := e.Client("").PostForm(paths.Login, url.Values{"username": {name}, "password": {pw}}); res.StatusCode != http.StatusUnauthorized {
				t.Errorf("sign in as invited %s: status %d, want 401", name, res.StatusCode)
			}
		}
		if _, err := e.Cmd.IssueToken(e.Ctx, domain.System(), domain.IssueToken{User: name, TokenID: events.NewID(e.Cmd.Now()),
			Name: "cli", Hash: strings.Repeat("a", 64)}); !errors.Is(err, domain.ErrAccountPending) {
			t.Errorf("a token for invited %s: %v", name, err)
		}
	}
	// The vote the probe would cast next, without a session: 401.
	if res, body := e.Client("").PostJSON("/api/v1/proposals/"+webtest.DemoInReview+"/votes", map[string]any{"verdict": "approve",
		"revision": 1, "verified_evidence": []string{"e1"}}, nil); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("vote without signing in: status %d, %.200s", res.StatusCode, body)
	}
}

// TestAuditShowsHowActorsSignedIn: every event records how its actor
// signed in, and the audit page says it in both languages: the seed ran
// from the command line, the editor issued a token in a session, and
// opened a proposal with that token.
func TestAuditShowsHowActorsSignedIn(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	ed := e.Client("editor")
	tf := webtest.FormValues(webtest.ByTestID(e.Page(ed, paths.Account, http.StatusOK), "token-form-editor"))
	tf.Set("name", "ci-bot")
	_, body := ed.PostForm(paths.Account+"/tokens", tf)
	full := strings.TrimSpace(webtest.ByTestID(webtest.Doc(t, body), "token-secret").Text())
	id := tokenIDOf(t, full)
	res, body := e.Client("").PostJSON("/api/v1/proposals", map[string]any{"ranking": webtest.DemoRanking, "entry": "aliyun",
		"title": "From CI"}, http.Header{"Authorization": {"Bearer " + full}})
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("open by token: status %d, %.200s", res.StatusCode, body)
	}
	e.CaughtUp()

	rows := func(lang, query string) (via, method []string) {
		c := e.Client("editor")
		doc := e.Page(c, "/desk/audit?lang="+lang+"&"+query, http.StatusOK)
		webtest.ByTestID(doc, "audit-row").Each(func(_ int, row *goquery.Selection) {
			v := row.Find(`[data-testid="audit-row-via"]`)
			via, method = append(via, strings.TrimSpace(v.Text())), append(method, v.AttrOr("data-via", ""))
		})
		return via, method
	}
	via, method := rows("en", "actor=editor&limit=2")
	want := []string{"via token “ci-bot” (id " + id + ")", "via session"}
	if strings.Join(via, "|") != strings.Join(want, "|") {
		t.Errorf("the editor's latest events:\n got %q\nwant %q", via, want)
	}
	if strings.Join(method, " ") != "token session" {
		t.Errorf("data-via %q", method)
	}
	if via, _ := rows("zh", "actor=editor&limit=2"); len(via) != 2 || via[1] != "通过登录会话" || via[0] != "通过令牌「ci-bot」（ID "+id+"）" {
		t.Errorf("in Chinese: %q", via)
	}
	if via, _ := rows("en", "actor=system&limit=1"); len(via) != 1 || via[0] != "via command line" {
		t.Errorf("the seed's events: %q", via)
	}
	if via, _ := rows("zh", "actor=system&limit=1"); len(via) != 1 || via[0] != "通过命令行" {
		t.Errorf("the seed's events in Chinese: %q", via)
	}
	// The exports carry the attribute as stored.
	res, body = ed.Do(http.MethodGet, "/api/v1/audit?actor=editor&limit=1", nil, nil)
	var page struct {
		Rows []projections.AuditRow `json:"rows"`
	}
	if res.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &page) != nil || len(page.Rows) == 0 {
		t.Fatalf("JSON export: status %d, %.200s", res.StatusCode, body)
	}
	if got, want := page.Rows[0].AuthVia, (events.Via{Method: events.ViaToken, TokenID: id, TokenName: "ci-bot"}).String(); got != want {
		t.Errorf("JSON export authvia %q, want %q", got, want)
	}
}
