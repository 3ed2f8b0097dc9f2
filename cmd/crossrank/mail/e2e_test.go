package mail

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/server"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/notify"
)

// The whole way, through the server `crossrank serve` builds: reviewer1
// sets an address through the API, confirms it by the mailed link (a page,
// then its button), and is mailed at once when an editor asks for their
// review, with a link to the proposal; the one-click unsubscribe, posted
// by a mail provider with no cookie and its own origin, turns review
// requests off; reviewer2, a digest user, gets exactly one digest at
// their digest moment.
func TestMailEndToEnd(t *testing.T) {
	t.Parallel()
	loc, _ := time.LoadLocation("Europe/Berlin")
	var offset atomic.Int64
	e := start(t, 0, func() time.Time { return time.Now().Add(time.Duration(offset.Load())) })
	srv, err := server.New(server.Config{Events: e.js.Store, Read: e.read, Mail: e.svc, PublicURL: publicURL})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.HTTP.Handler)
	t.Cleanup(ts.Close)
	local := func(link string) string { return strings.Replace(link, publicURL, ts.URL, 1) }
	r1 := e.token("reviewer1")

	// reviewer1 sets an address: nothing is sent to it but the link. An
	// API token may not (403): the address is set signed in with a
	// session, as the mail service is asked here.
	res := e.call(t, ts, r1, "PUT", "/api/v1/account/mail/address", `{"address":"r1@example.org"}`)
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("PUT address by a token: %d %s, want 403", res.StatusCode, readBody(res))
	}
	if err := e.svc.RequestAddress(e.ctx, "reviewer1", "r1@example.org", "en"); err != nil {
		t.Fatal(err)
	}
	text, _ := parts(t, e.relay.await(t, "r1@example.org", "Confirm"))
	link := confirmLink.FindString(text)
	if link == "" {
		t.Fatalf("no link in %s", text)
	}
	if res := e.call(t, ts, "", "GET", strings.TrimPrefix(local(link), ts.URL), ""); res.StatusCode != 200 ||
		!strings.Contains(readBody(res), `data-testid="mail-confirm-form"`) {
		t.Fatalf("the link's page: %d", res.StatusCode)
	}
	u, _ := url.Parse(link)
	res = e.form(t, ts, "/mail/confirm", url.Values{"user": {u.Query().Get("user")}, "token": {u.Query().Get("token")}}, "")
	if res.StatusCode != 200 {
		t.Fatalf("confirm: %d %s", res.StatusCode, readBody(res))
	}

	// The log holds the fact, as reviewer1's, and not the address.
	evs, err := e.js.Store.Load(e.ctx, domain.UserID("reviewer1"), 0)
	if err != nil {
		t.Fatal(err)
	}
	facts := 0
	for _, ev := range evs {
		if d, ok := ev.Data.(*events.MailAddressConfirmed); ok && d.By == events.MailByLink && ev.Actor == "reviewer1" {
			facts++
		}
		if strings.Contains(string(ev.Raw), "r1@example.org") {
			t.Errorf("the address is in the log: %s", ev.Raw)
		}
	}
	if facts != 1 {
		t.Errorf("%d MailAddressConfirmed events by link, want 1", facts)
	}

	// reviewer2 wants review requests in a digest at 09:00 Berlin time,
	// which the mailer's clock makes four seconds from now.
	l := time.Now().In(loc)
	nine := time.Date(l.Year(), l.Month(), l.Day(), 9, 0, 0, 0, loc)
	offset.Store(int64(time.Until(nine.Add(-4 * time.Second))))
	if err := e.svc.SetConfirmed(e.ctx, domain.System(), "reviewer2", "r2@example.org"); err != nil {
		t.Fatal(err)
	}
	r2 := e.token("reviewer2")
	res = e.call(t, ts, r2, "PUT", "/api/v1/account/mail/prefs",
		`{"kinds":{"review_requested":"digest","veto":"instant","schedule_failed":"instant","source_changed":"digest","other":"none"},"digest_hour":9,"time_zone":"Europe/Berlin","lang":"zh"}`)
	if res.StatusCode != 200 {
		t.Fatalf("PUT prefs: %d %s", res.StatusCode, readBody(res))
	}

	p := e.openProposals("editor", 1)[0]
	e.request(p, "reviewer1", "reviewer2")
	m := e.relay.await(t, "r1@example.org", p)
	text, _ = parts(t, m)
	contains(t, "reviewer1's mail", text, publicURL+"/desk/proposals/"+p)

	// The mail's state shows in the API.
	e.sentDeliveries("reviewer1", 1)
	res = e.call(t, ts, r1, "GET", "/api/v1/account/mail", "")
	var acct notify.Account
	if err := json.NewDecoder(res.Body).Decode(&acct); err != nil || acct.Address != "r1@example.org" ||
		len(acct.Deliveries) != 1 || acct.Deliveries[0].State != notify.StateSent {
		t.Errorf("GET account: %v %+v", err, acct)
	}

	// And on the desk's mail page.
	if page := readBody(e.call(t, ts, r1, "GET", "/desk/account/mail", "")); !strings.Contains(page, `data-testid="mail-delivery" data-state="sent"`) ||
		!strings.Contains(page, "r1@example.org") {
		t.Errorf("the mail page shows no sent mail:\n%s", page)
	}

	// One click, from a mail provider's server.
	unsub := strings.Trim(m.Msg.Header.Get("List-Unsubscribe"), "<>")
	req, _ := http.NewRequest("POST", local(unsub), strings.NewReader("List-Unsubscribe=One-Click"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://mail.provider.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	res, err = ts.Client().Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("one-click unsubscribe: %v %d", err, res.StatusCode)
	}
	if acct, _ := e.svc.Account(e.ctx, "reviewer1"); acct.Prefs.ModeOf("review_requested") != notify.ModeNone {
		t.Errorf("after one click, review requests come %s", acct.Prefs.ModeOf("review_requested"))
	}
	// Another site's forms still may not post to the desk.
	if res := e.form(t, ts, "/desk/account/mail/prefs", url.Values{}, "https://evil.example"); res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin post of the prefs: %d", res.StatusCode)
	}

	d := e.relay.await(t, "r2@example.org", "每日摘要")
	text, _ = parts(t, d)
	contains(t, "the digest", text, publicURL+"/desk/proposals/"+p)
	n := 0
	for _, m := range e.relay.all() {
		if m.To == "r2@example.org" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("reviewer2 got %d mails, want the one digest", n)
	}
}

// token issues an API token to user and returns it.
func (e *env) token(user string) string {
	e.t.Helper()
	id, _, full, hash := auth.NewToken(time.Now())
	if _, err := e.cmd.IssueToken(e.ctx, e.actor(user), domain.IssueToken{CommandID: events.NewID(time.Now()), User: user,
		TokenID: id, Name: "mail test", Hash: hash}); err != nil {
		e.t.Fatal(err)
	}
	last, _ := e.js.Store.LastSequence(e.ctx)
	if err := e.read.WaitFor(e.ctx, last); err != nil {
		e.t.Fatal(err)
	}
	return full
}

func (e *env) call(t *testing.T, ts *httptest.Server, token, method, path, payload string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(payload))
	if payload != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

func (e *env) form(t *testing.T, ts *httptest.Server, path string, v url.Values, origin string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", ts.URL+path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if origin != "" {
		req.Header.Set("Origin", origin)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

func readBody(res *http.Response) string {
	b, _ := io.ReadAll(res.Body)
	return string(b)
}
