package webtest

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/paths"
)

// LinkOf returns the path and query of the one-time link a link-issued
// page shows, failing when the page shows none.
func LinkOf(t *testing.T, page *goquery.Document) string {
	t.Helper()
	raw := strings.TrimSpace(ByTestID(page, "link-url").Text())
	u, err := url.Parse(raw)
	if raw == "" || err != nil || u.Path != paths.Welcome {
		t.Fatalf("no one-time link on the page: %q", raw)
	}
	return u.RequestURI()
}

// Invite adds user with roles through the desk's form as the signed-in
// admin and returns the one-time link the page shows once.
func Invite(t *testing.T, admin *Client, user string, roles ...string) string {
	t.Helper()
	res, body := admin.Do(http.MethodGet, paths.Users, nil, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("users page: status %d", res.StatusCode)
	}
	form := FormValues(ByTestID(Doc(t, body), "user-add-form"))
	form.Set("username", user)
	form["roles"] = roles
	res, body = admin.PostForm(paths.Users, form)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("invite %s: status %d, %q", user, res.StatusCode, ByTestID(Doc(t, body), "form-error").Text())
	}
	return LinkOf(t, Doc(t, body))
}

// Accept opens link as the invited person (a signed-out client) and chooses
// password on it; it returns the status and Location of the form's answer.
func Accept(t *testing.T, c *Client, link, password string) (int, string) {
	t.Helper()
	res, body := c.Do(http.MethodGet, link, nil, nil)
	if res.StatusCode != http.StatusOK {
		return res.StatusCode, ""
	}
	form := FormValues(ByTestID(Doc(t, body), "welcome-form"))
	form.Set("password", password)
	form.Set("confirm_password", password)
	res, _ = c.PostForm(paths.Welcome, form)
	return res.StatusCode, res.Header.Get("Location")
}

// Queue returns a dashboard queue's count and item links, and whether it is shown.
func Queue(doc *goquery.Document, id string) (count int, links []string, shown bool) {
	sec := doc.Find(`[data-testid="queue-` + id + `"]`)
	if sec.Length() == 0 {
		return 0, nil, false
	}
	count, _ = strconv.Atoi(sec.AttrOr("data-count", "-1"))
	sec.Find(`[data-testid="queue-item-link"]`).Each(func(_ int, a *goquery.Selection) {
		links = append(links, a.AttrOr("href", ""))
	})
	return count, links, true
}

// Revalidated has ed revise proposal id and submit it, and rev and rex
// approve the new revision: what the proposal publishes changed.
func Revalidated(t *testing.T, e *AdminEnv, id string) {
	t.Helper()
	ed := domain.Actor{Name: "ed", Roles: AdminUsers["ed"]}
	if _, err := e.Cmd.Revise(e.Ctx, ed, domain.Revise{Proposal: id, Note: "a newer source"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Cmd.Submit(e.Ctx, ed, domain.Submit{Proposal: id}); err != nil {
		t.Fatal(err)
	}
	p, err := e.Cmd.Proposal(e.Ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, voter := range []string{"rev", "rex"} {
		if _, err := e.Cmd.CastVote(e.Ctx, domain.Actor{Name: voter, Roles: AdminUsers[voter]},
			domain.CastVote{Proposal: id, Revision: p.Revision, Verdict: events.Approve, VerifiedEvidence: p.EvidenceIDs()}); err != nil {
			t.Fatal(err)
		}
	}
	e.CaughtUp()
}
