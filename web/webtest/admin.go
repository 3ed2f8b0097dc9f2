package webtest

import (
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
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/desk"
)

// demoFakeHash stands in for argon2id for the demo's own users, who never
// sign in here: the domain only checks the PHC prefix.
func demoFakeHash(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }

// AdminUsers sign in to an AdminEnv with Password. pia holds editor and
// publisher, to show that a publisher cannot publish their own proposal;
// ada administers users.
var AdminUsers = map[string][]string{
	"ada": {domain.RoleAdmin},
	"pat": {domain.RolePublisher},
	"pia": {domain.RoleEditor, domain.RolePublisher},
	"ed":  {domain.RoleEditor},
	"rev": {domain.RoleReviewer},
	"rex": {domain.RoleReviewer},
}

// AdminEnv is the desk over a real embedded JetStream store and real
// SQLite read models kept current by the projection runner, with the demo
// ranking seeded through the real commands and AdminUsers registered.
type AdminEnv struct {
	T     *testing.T
	Ctx   context.Context
	Store *jetstream.Store
	Cmd   *handler.Handler
	Read  *projections.Store
	Path  string // the read models' file
	Srv   *web.Server
	proj  projectionRun
}

// projectionRun is the projection runner, which a test may stop and start.
type projectionRun struct {
	mu     sync.Mutex
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// StopProjection stops the projection runner: the read models stay where
// they are while commands go on storing events, as when a large edition
// keeps them busy.
func (e *AdminEnv) StopProjection() {
	e.proj.mu.Lock()
	defer e.proj.mu.Unlock()
	e.proj.cancel()
	e.proj.wg.Wait()
}

// StartProjection starts the runner again, from the read models' checkpoint.
func (e *AdminEnv) StartProjection() {
	e.proj.mu.Lock()
	defer e.proj.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	e.proj.cancel = cancel
	e.proj.wg.Go(func() { _ = e.Read.Run(ctx, e.Store, nil) })
}

// NewAdmin starts an AdminEnv.
func NewAdmin(t *testing.T) *AdminEnv {
	t.Helper()
	ctx := Context(t)
	store := jstest.Start(t).Store
	path := filepath.Join(t.TempDir(), "read.db")
	read, err := projections.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	e := &AdminEnv{T: t, Ctx: ctx, Store: store, Cmd: handler.New(store, nil), Read: read, Path: path}
	e.StartProjection()
	t.Cleanup(func() { e.StopProjection(); read.Close() })
	if _, err := demo.Seed(ctx, e.Cmd, demo.Options{Password: "unused", HashPassword: demoFakeHash, Now: time.Now(),
		AuditHead: read.AuditHead, CrossValidated: read.CrossValidated}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	for name, roles := range AdminUsers {
		if _, err := e.Cmd.RegisterUser(ctx, domain.System(), domain.RegisterUser{
			Username: name, DisplayName: strings.ToUpper(name), PasswordHash: PasswordHash(), Roles: roles}); err != nil {
			t.Fatalf("register %s: %v", name, err)
		}
	}
	e.CaughtUp()
	if e.Srv, err = web.New(web.Config{Commands: e.Cmd, Read: read, Verify: desk.ProjectionVerifier(store, read.DB()),
		Logger: slog.New(slog.DiscardHandler), SessionKeys: [][]byte{SessionKey}}); err != nil {
		t.Fatal(err)
	}
	return e
}

// CaughtUp waits until the read models hold every stored event.
func (e *AdminEnv) CaughtUp() {
	e.T.Helper()
	WaitApplied(e.T, e.Ctx, e.Read, e.LastSeq())
}

// LastSeq is the event store's last sequence: equal before and after a
// refused request, nothing was appended.
func (e *AdminEnv) LastSeq() uint64 {
	e.T.Helper()
	seq, err := e.Store.LastSequence(e.Ctx)
	if err != nil {
		e.T.Fatal(err)
	}
	return seq
}

// Client returns a browser signed in as user ("" for signed out).
func (e *AdminEnv) Client(user string) *Client {
	e.T.Helper()
	c := &Client{T: e.T, H: e.Srv.Handler(), Cookies: map[string]*http.Cookie{}, Header: http.Header{},
		Peer: "198.51.100." + strconv.Itoa(int(peerCounter.Add(1))%250+1) + ":40000"}
	if user != "" {
		c.Login(user)
	}
	return c
}

// Get fetches a page and fails unless it answers want.
func (e *AdminEnv) Get(c *Client, target string, want int) *goquery.Document {
	e.T.Helper()
	res, body := c.Do(http.MethodGet, target, nil, nil)
	if res.StatusCode != want {
		e.T.Fatalf("GET %s: status %d, want %d; body %.600s", target, res.StatusCode, want, body)
	}
	return Doc(e.T, body)
}

// Post sends a form and returns the status, the Location and the page.
func (e *AdminEnv) Post(c *Client, target string, values url.Values) (int, string, *goquery.Document) {
	e.T.Helper()
	res, body := c.PostForm(target, values)
	return res.StatusCode, res.Header.Get("Location"), Doc(e.T, body)
}

// Doc parses an HTML page.
func Doc(t *testing.T, body string) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// FormValues is what a browser sends for form: its named inputs (checked
// boxes only), selects and text areas.
func FormValues(form *goquery.Selection) url.Values {
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

// ByTestID finds the elements with a data-testid.
func ByTestID(doc *goquery.Document, id string) *goquery.Selection {
	return doc.Find(`[data-testid="` + id + `"]`)
}

// DemoReady is the demo's one cross-validated, unpublished proposal: an
// onboarding score for qingjiao, held back from edition 1.
const DemoReady = "demo-qingjiao-2"
