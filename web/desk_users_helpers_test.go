package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/web/paths"
)

// linkOf returns the path and query of the one-time link a link-issued
// page shows, failing when the page shows none.
func linkOf(t *testing.T, page *goquery.Document) string {
	t.Helper()
	raw := strings.TrimSpace(byTestID(page, "link-url").Text())
	u, err := url.Parse(raw)
	if raw == "" || err != nil || u.Path != paths.Welcome {
		t.Fatalf("no one-time link on the page: %q", raw)
	}
	return u.RequestURI()
}

// invite adds user with roles through the desk's form as the signed-in
// admin and returns the one-time link the page shows once.
func invite(t *testing.T, admin *client, user string, roles ...string) string {
	t.Helper()
	res, body := admin.do(http.MethodGet, paths.Users, nil, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("users page: status %d", res.StatusCode)
	}
	form := formValues(byTestID(adminDoc(t, body), "user-add-form"))
	form.Set("username", user)
	form["roles"] = roles
	res, body = admin.postForm(paths.Users, form)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("invite %s: status %d, %q", user, res.StatusCode, byTestID(adminDoc(t, body), "form-error").Text())
	}
	return linkOf(t, adminDoc(t, body))
}

// accept opens link as the invited person (a signed-out client) and chooses
// password on it; it returns the status and Location of the form's answer.
func accept(t *testing.T, c *client, link, password string) (int, string) {
	t.Helper()
	res, body := c.do(http.MethodGet, link, nil, nil)
	if res.StatusCode != http.StatusOK {
		return res.StatusCode, ""
	}
	form := formValues(byTestID(adminDoc(t, body), "welcome-form"))
	form.Set("password", password)
	form.Set("confirm_password", password)
	res, _ = c.postForm(paths.Welcome, form)
	return res.StatusCode, res.Header.Get("Location")
}
