package auth_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// oidcEnv is the desk with sign-in through testOP: a real embedded
// JetStream store, real SQLite read models kept current, admin ada
// (password) to invite people.
type oidcEnv struct {
	T     *testing.T
	Ctx   context.Context
	Store *jetstream.Store
	Cmd   *handler.Handler
	Read  *projections.Store
	Srv   *web.Server
	op    *testOP
	Logs  *webtest.SyncBuffer // the server's log: why a sign-in was refused
}

func newOIDCEnv(t *testing.T, tweak ...func(*web.Config)) *oidcEnv {
	t.Helper()
	return newOIDCEnvAt(t, "http://"+testHost, tweak...)
}

// newOIDCEnvAt is newOIDCEnv for a desk served at base (the provider
// accepts the callback there).
func newOIDCEnvAt(t *testing.T, base string, tweak ...func(*web.Config)) *oidcEnv {
	t.Helper()
	ctx := webtest.Context(t)
	store := jstest.Start(t).Store
	read, err := projections.Open(filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = read.Run(runCtx, store, nil) })
	t.Cleanup(func() { stop(); wg.Wait(); read.Close() })
	e := &oidcEnv{T: t, Ctx: ctx, Store: store, Cmd: handler.New(store, nil), Read: read, Logs: &webtest.SyncBuffer{}}
	if _, err := e.Cmd.RegisterUser(ctx, domain.System(), domain.RegisterUser{
		Username: "ada", DisplayName: "Ada", PasswordHash: webtest.PasswordHash(), Roles: []string{domain.RoleAdmin}}); err != nil {
		t.Fatal(err)
	}
	e.op = startOP(t, base+paths.LoginOIDCCallback)
	cfg := web.Config{Commands: e.Cmd, Read: read, Logger: slog.New(slog.NewTextHandler(e.Logs, nil)),
		SessionKeys: [][]byte{bytes.Repeat([]byte("k"), 32)},
		OIDC:        &auth.OIDCConfig{Issuer: e.op.issuer, ClientID: oidcClientID, ClientSecret: oidcSecret, Name: "Newsroom ID"}}
	for _, f := range tweak {
		f(&cfg)
	}
	if e.Srv, err = web.New(cfg); err != nil {
		t.Fatal(err)
	}
	return e
}

// browser is a signed-out client of the desk.
func (e *oidcEnv) browser() *webtest.Client {
	return &webtest.Client{T: e.T, H: e.Srv.Handler(), Cookies: map[string]*http.Cookie{}, Header: http.Header{},
		Peer: "203.0.113.9:40000"}
}

// CaughtUp waits until the read models hold every stored event.
func (e *oidcEnv) CaughtUp() {
	e.T.Helper()
	seq, err := e.Store.LastSequence(e.Ctx)
	if err != nil {
		e.T.Fatal(err)
	}
	if err := e.Read.WaitFor(e.Ctx, seq); err != nil {
		e.T.Fatal(err)
	}
}

func (e *oidcEnv) LastSeq() uint64 {
	e.T.Helper()
	seq, err := e.Store.LastSequence(e.Ctx)
	if err != nil {
		e.T.Fatal(err)
	}
	return seq
}

// invite has ada invite user with roles on the desk and returns the link.
func (e *oidcEnv) invite(user string, roles ...string) string {
	e.T.Helper()
	ada := e.browser()
	ada.Login("ada")
	link := webtest.Invite(e.T, ada, user, roles...)
	e.CaughtUp()
	return link
}

// atProvider starts a sign-in on the desk at start (a GET on our handler),
// signs in on the provider's own login page as opUsername, and returns the
// callback the provider sends the browser back to (path and query on the
// desk), without following it.
func (e *oidcEnv) atProvider(c *webtest.Client, start, opUsername string) string {
	e.T.Helper()
	res, body := c.Do(http.MethodGet, start, nil, nil)
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), e.op.issuer) {
		e.T.Fatalf("GET %s: status %d, Location %q, body %.300s", start, res.StatusCode, res.Header.Get("Location"), body)
	}
	jar, _ := cookiejar.New(nil)
	opc := &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if req.URL.Host == testHost {
			return http.ErrUseLastResponse // back to the desk: the test's own client takes it
		}
		return nil
	}}
	page, err := opc.Get(res.Header.Get("Location"))
	if err != nil {
		e.T.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(page.Body)
	page.Body.Close()
	if err != nil {
		e.T.Fatal(err)
	}
	id, ok := doc.Find(`form input[name="id"]`).Attr("value")
	if !ok || id == "" {
		e.T.Fatalf("the provider's login page has no form: status %d", page.StatusCode)
	}
	back, err := opc.PostForm(e.op.issuer+"/login/username", url.Values{"id": {id}, "username": {opUsername}, "password": {opPassword}})
	if err != nil {
		e.T.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, back.Body)
	back.Body.Close()
	loc, err := url.Parse(back.Header.Get("Location"))
	if err != nil || loc.Host != testHost || loc.Path != paths.LoginOIDCCallback {
		e.T.Fatalf("the provider did not send the browser back: status %d, Location %q", back.StatusCode, back.Header.Get("Location"))
	}
	return loc.RequestURI()
}

// signIn runs a whole sign-in through the provider and returns the
// callback's answer.
func (e *oidcEnv) signIn(c *webtest.Client, start, opUsername string) (*http.Response, string) {
	e.T.Helper()
	return c.Do(http.MethodGet, e.atProvider(c, start, opUsername), nil, nil)
}

// refused checks that a callback answered status with the refusal page of
// reason, and left the browser signed out.
func refused(t *testing.T, c *webtest.Client, res *http.Response, body string, status int, reason string) {
	t.Helper()
	if res.StatusCode != status {
		t.Fatalf("status %d, want %d; body %.400s", res.StatusCode, status, body)
	}
	doc := webtest.Doc(t, body)
	if got, _ := webtest.ByTestID(doc, "oidc-refused").Attr("data-reason"); got != reason {
		t.Errorf("refusal reason %q, want %q", got, reason)
	}
	if c.Cookies[auth.CookieName] != nil {
		t.Errorf("a refused sign-in set a session cookie")
	}
	if c.SignedIn() {
		t.Errorf("a refused sign-in left the browser signed in")
	}
}

// logged reports whether the server's log has a line since mark (a length
// of the log) that contains every one of words.
func (e *oidcEnv) logged(mark int, words ...string) bool {
	for _, line := range strings.Split(e.Logs.String()[mark:], "\n") {
		if all(line, words) {
			return true
		}
	}
	return false
}

func all(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// welcomeOIDC is the invitation's link started through the provider.
func welcomeOIDC(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return paths.LoginOIDC + "?" + u.RawQuery
}
