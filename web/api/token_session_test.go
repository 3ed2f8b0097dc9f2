package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/notify"
	"github.com/crossrank/crossrank/web/webtest"
)

// addressBook is the mail settings of a server that sends mail, as far as
// the address routes need them: it records the addresses asked for.
type addressBook struct {
	notify.Mail
	mu    sync.Mutex
	asked []string
}

func (b *addressBook) RequestAddress(_ context.Context, user, address, _ string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.asked = append(b.asked, user+" "+address)
	return nil
}

func (b *addressBook) Account(context.Context, string) (notify.Account, error) {
	return notify.Account{Prefs: notify.DefaultPrefs("en"), Deliveries: []notify.Delivery{}}, nil
}

func (b *addressBook) requests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.asked...)
}

// TestTokenCannotIssueTokensOrMoveMail: an API token issues no token (a
// child of no expiry outlived its revoked parent) and sets no mail
// address (where the links that reset access go); both answer 403 with a
// problem naming the session they need, store nothing, and work signed in
// with a session.
func TestTokenCannotIssueTokensOrMoveMail(t *testing.T) {
	t.Parallel()
	mail := &addressBook{}
	e := webtest.New(t, func(c *web.Config) { c.Mail = mail })
	alice := e.Client()
	alice.Login("alice")
	res, body := alice.PostJSON("/api/v1/account/tokens", map[string]any{"name": "ci", "expires_days": 30}, nil)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("a token by the session: %d %s", res.StatusCode, body)
	}
	var parent api.IssuedToken
	if err := json.Unmarshal([]byte(body), &parent); err != nil {
		t.Fatal(err)
	}
	bearer := http.Header{"Authorization": {"Bearer " + parent.Token}}
	script := e.Client()

	before := e.LastSeq()
	res, body = script.PostJSON("/api/v1/account/tokens", map[string]any{"name": "child", "expires_days": 0}, bearer)
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("a token by a token: %d %s, want 403", res.StatusCode, body)
	}
	if p := webtest.DecodeProblem(t, res, body); !strings.Contains(p.Detail, "not with another API token") {
		t.Errorf("a token by a token: %+v, want the words saying why", p)
	}
	if e.LastSeq() != before {
		t.Error("a token by a token stored events")
	}

	for _, lang := range []string{"en", "zh-CN"} {
		h := http.Header{"Authorization": bearer["Authorization"], "Accept-Language": {lang}}
		res, body = script.Do(http.MethodPut, "/api/v1/account/mail/address", strings.NewReader(`{"address":"thief@example.org"}`),
			http.Header{"Content-Type": {"application/json"}, "Authorization": h["Authorization"], "Accept-Language": h["Accept-Language"]})
		if res.StatusCode != http.StatusForbidden {
			t.Fatalf("%s: a mail address by a token: %d %s, want 403", lang, res.StatusCode, body)
		}
		if p := webtest.DecodeProblem(t, res, body); p.Detail == "" || strings.Contains(p.Detail, "account.mail_needs_session") {
			t.Errorf("%s: a mail address by a token: %+v, want words", lang, p)
		}
	}
	res, _ = script.Do(http.MethodPost, "/desk/account/mail/address", strings.NewReader(url.Values{"address": {"thief@example.org"}}.Encode()),
		http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Authorization": bearer["Authorization"]})
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("the desk's address form by a token: %d, want 403", res.StatusCode)
	}
	if got := mail.requests(); len(got) != 0 {
		t.Fatalf("addresses asked for by a token: %q", got)
	}

	// Signed in with a session, both work.
	res, body = alice.Do(http.MethodPut, "/api/v1/account/mail/address", strings.NewReader(`{"address":"alice@example.org"}`),
		http.Header{"Content-Type": {"application/json"}})
	if res.StatusCode != http.StatusAccepted || len(mail.requests()) != 1 {
		t.Errorf("a mail address by the session: %d %s, asked %q", res.StatusCode, body, mail.requests())
	}
	if res, body := alice.PostJSON("/api/v1/account/tokens", map[string]any{"name": "second"}, nil); res.StatusCode != http.StatusCreated {
		t.Errorf("a second token by the session: %d %s", res.StatusCode, body)
	}
}
