package web

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/desk"
)

// adminFakeHash stands in for argon2id for the demo's own users, who never
// sign in here: the domain only checks the PHC prefix.
func adminFakeHash(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }

// adminUsers sign in with testPassword (a real argon2id hash). pia holds
// editor and publisher, to show that a publisher cannot publish their own
// proposal; ada administers users.
var adminUsers = map[string][]string{
	"ada": {domain.RoleAdmin},
	"pat": {domain.RolePublisher},
	"pia": {domain.RoleEditor, domain.RolePublisher},
	"ed":  {domain.RoleEditor},
	"rev": {domain.RoleReviewer},
	"rex": {domain.RoleReviewer},
}

// adminEnv is the desk over a real embedded JetStream store and real
// SQLite read models kept current by the projection runner, with the demo
// ranking seeded through the real commands.
type adminEnv struct {
	t     *testing.T
	ctx   context.Context
	store *jetstream.Store
	cmd   *handler.Handler
	read  *projections.Store
	path  string // the read models' file
	srv   *Server
}

func newAdminEnv(t *testing.T) *adminEnv {
	t.Helper()
	ctx := testContext(t)
	store := jstest.Start(t).Store
	path := filepath.Join(t.TempDir(), "read.db")
	read, err := projections.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = read.Run(runCtx, store, nil) })
	t.Cleanup(func() { stop(); wg.Wait(); read.Close() })
	e := &adminEnv{t: t, ctx: ctx, store: store, cmd: handler.New(store, nil), read: read, path: path}
	if _, err := demo.Seed(ctx, e.cmd, demo.Options{Password: "unused", HashPassword: adminFakeHash, Now: time.Now(),
		AuditHead: read.AuditHead, CrossValidated: read.CrossValidated}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	for name, roles := range adminUsers {
		if _, err := e.cmd.RegisterUser(ctx, domain.System(), domain.RegisterUser{
			Username: name, DisplayName: strings.ToUpper(name), PasswordHash: testHash(), Roles: roles}); err != nil {
			t.Fatalf("register %s: %v", name, err)
		}
	}
	e.caughtUp()
	if e.srv, err = New(Config{Commands: e.cmd, Read: read, Verify: desk.ProjectionVerifier(store, read.DB()),
		Logger: slog.New(slog.DiscardHandler), SessionKeys: [][]byte{bytes.Repeat([]byte("k"), 32)}}); err != nil {
		t.Fatal(err)
	}
	return e
}

// caughtUp waits until the read models hold every stored event.
func (e *adminEnv) caughtUp() {
	e.t.Helper()
	if err := e.read.WaitFor(e.ctx, e.lastSeq()); err != nil {
		e.t.Fatal(err)
	}
}

// lastSeq is the event store's last sequence: equal before and after a
// refused request, nothing was appended.
func (e *adminEnv) lastSeq() uint64 {
	e.t.Helper()
	seq, err := e.store.LastSequence(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	return seq
}

// client returns a browser signed in as user ("" for signed out).
func (e *adminEnv) client(user string) *client {
	e.t.Helper()
	c := &client{t: e.t, h: e.srv.Handler(), cookies: map[string]*http.Cookie{}, header: http.Header{},
		peer: "198.51.100." + strconv.Itoa(int(peerCounter.Add(1))%250+1) + ":40000"}
	if user != "" {
		c.login(user)
	}
	return c
}

// get fetches a page and fails unless it answers want.
func (e *adminEnv) get(c *client, target string, want int) *goquery.Document {
	e.t.Helper()
	res, body := c.do(http.MethodGet, target, nil, nil)
	if res.StatusCode != want {
		e.t.Fatalf("GET %s: status %d, want %d; body %.600s", target, res.StatusCode, want, body)
	}
	return adminDoc(e.t, body)
}

// post sends a form and returns the status, the Location and the page.
func (e *adminEnv) post(c *client, target string, values url.Values) (int, string, *goquery.Document) {
	e.t.Helper()
	res, body := c.postForm(target, values)
	return res.StatusCode, res.Header.Get("Location"), adminDoc(e.t, body)
}

func adminDoc(t *testing.T, body string) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// formValues is what a browser sends for form: its named inputs (checked
// boxes only), selects and text areas.
func formValues(form *goquery.Selection) url.Values {
	v := url.Values{}
	form.Find("input[name], textarea[name], select[name]").Each(func(_ int, in *goquery.Selection) {
		name, _ := in.Attr("name")
		if _, disabled := in.Attr("disabled"); disabled {
			return
		}
		switch {
		case goquery.NodeName(in) == "textarea":
			v.Add(name, in.Text())
		case goquery.NodeName(in) == "select":
			val, _ := in.Find("option[selected]").Attr("value")
			v.Add(name, val)
		default:
			typ, _ := in.Attr("type")
			if _, checked := in.Attr("checked"); (typ == "checkbox" || typ == "radio") && !checked {
				return
			}
			val, _ := in.Attr("value")
			v.Add(name, val)
		}
	})
	return v
}

// byTestID finds the elements with a data-testid.
func byTestID(doc *goquery.Document, id string) *goquery.Selection {
	return doc.Find(`[data-testid="` + id + `"]`)
}
