package notify_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/notify"
	"github.com/crossrank/crossrank/web/webtest"
	"github.com/crossrank/crossrank/web/webtest/openapicheck"
)

// wrongLinks is a mail service for which every link's token is wrong, as
// cmd/crossrank/mail's Service answers for a token it did not issue; what
// the routes here do with that answer is the web's part.
type wrongLinks struct{ notify.Mail }

func (wrongLinks) ConfirmAddress(context.Context, string, string) error { return notify.ErrBadToken }
func (wrongLinks) Unsubscribe(context.Context, string) (string, string, error) {
	return "", "", notify.ErrBadToken
}

// TestMailLinkRefused: a wrong link's confirm or one-click unsubscribe is
// 400 problem+json, as the OpenAPI document says, to a mail client (no
// Accept, or */*); a browser posting the page's button (Accept naming
// text/html) sees the error page instead, and the answer varies on Accept.
func TestMailLinkRefused(t *testing.T) {
	t.Parallel()
	e := webtest.NewSiteWith(t, func(c *web.Config) { c.Mail = wrongLinks{} })
	post := func(target string, form url.Values, accept string) (*http.Response, string) {
		t.Helper()
		r := httptest.NewRequest(http.MethodPost, target, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if accept != "" {
			r.Header.Set("Accept", accept)
		}
		w := httptest.NewRecorder()
		e.Srv.Handler().ServeHTTP(w, r)
		body := w.Body.String()
		openapicheck.CheckDocumented(t, http.MethodPost, target, r.Header, []byte(form.Encode()), w.Result(), []byte(body))
		return w.Result(), body
	}
	for _, c := range []struct {
		name   string
		target string
		form   url.Values
	}{
		{"one-click unsubscribe", "/mail/unsubscribe?token=wrong", url.Values{"List-Unsubscribe": {"One-Click"}}},
		{"unsubscribe button", "/mail/unsubscribe", url.Values{"token": {"wrong"}}},
		{"confirm button", "/mail/confirm", url.Values{"user": {"editor"}, "token": {"wrong"}}},
	} {
		for _, accept := range []string{"", "*/*", "application/json"} {
			res, body := post(c.target, c.form, accept)
			if ct := res.Header.Get("Content-Type"); res.StatusCode != http.StatusBadRequest || !strings.HasPrefix(ct, "application/problem+json") ||
				!strings.Contains(body, "mail.bad_token") && !strings.Contains(body, `"status":400`) {
				t.Errorf("%s, Accept %q: %d %s %.200s; want a 400 problem", c.name, accept, res.StatusCode, ct, body)
			}
		}
		res, body := post(c.target, c.form, "text/html,application/xhtml+xml,*/*;q=0.8")
		if ct := res.Header.Get("Content-Type"); res.StatusCode != http.StatusBadRequest || !strings.HasPrefix(ct, "text/html") {
			t.Errorf("%s from a browser: %d %s %.200s; want a 400 page", c.name, res.StatusCode, ct, body)
		}
		if !strings.Contains(res.Header.Get("Vary"), "Accept") {
			t.Errorf("%s: Vary %q, want Accept", c.name, res.Header.Get("Vary"))
		}
	}
}

// TestMailLinkPages: the pages a mail's links open show their button
// (200) whatever the token, which is checked when the button posts; a link
// missing a part is refused at once (400 mail.bad_token), and every link
// on a server that sends no mail (404 mail.off): a problem to a program, a
// page to a browser, as the OpenAPI document says.
func TestMailLinkPages(t *testing.T) {
	t.Parallel()
	on := webtest.NewSiteWith(t, func(c *web.Config) { c.Mail = wrongLinks{} })
	off := webtest.NewSite(t)
	for _, c := range []struct {
		name   string
		e      *webtest.SiteEnv
		target string
		accept string
		status int
		ct     string
	}{
		{"confirm", on, "/mail/confirm?user=editor&token=wrong", "text/html", http.StatusOK, "text/html"},
		{"unsubscribe", on, "/mail/unsubscribe?token=wrong", "text/html", http.StatusOK, "text/html"},
		{"confirm without a token", on, "/mail/confirm?user=editor", "", http.StatusBadRequest, "application/problem+json"},
		{"confirm without a user", on, "/mail/confirm?token=wrong", "text/html", http.StatusBadRequest, "text/html"},
		{"unsubscribe without a token", on, "/mail/unsubscribe", "*/*", http.StatusBadRequest, "application/problem+json"},
		{"confirm, no mail sent", off, "/mail/confirm?user=editor&token=wrong", "", http.StatusNotFound, "application/problem+json"},
		{"unsubscribe, no mail sent", off, "/mail/unsubscribe?token=wrong", "text/html", http.StatusNotFound, "text/html"},
	} {
		r := httptest.NewRequest(http.MethodGet, c.target, nil)
		if c.accept != "" {
			r.Header.Set("Accept", c.accept)
		}
		w := httptest.NewRecorder()
		c.e.Srv.Handler().ServeHTTP(w, r)
		openapicheck.CheckDocumented(t, http.MethodGet, c.target, r.Header, nil, w.Result(), w.Body.Bytes())
		if ct := w.Header().Get("Content-Type"); w.Code != c.status || !strings.HasPrefix(ct, c.ct) {
			t.Errorf("%s, Accept %q: %d %s, want %d %s", c.name, c.accept, w.Code, ct, c.status, c.ct)
		}
	}
}
