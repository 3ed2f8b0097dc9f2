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
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
)

// The demo seed's proposals, one in each desk queue.
const (
	demoRanking   = demo.RankingSlug
	demoDraft     = "demo-matpool-2"      // the editor's draft
	demoInReview  = "demo-huawei-cloud-2" // in review, approved by reviewer1
	demoValidated = "demo-qingjiao-2"     // cross-validated, not published
)

// extraUsers are signed-in users beyond the demo's four (editor, reviewer1,
// reviewer2, publisher): eve holds editor and reviewer, max editor and
// publisher, to show that no role lets an author judge their own proposal.
var extraUsers = map[string][]string{
	"eve": {domain.RoleEditor, domain.RoleReviewer},
	"max": {domain.RoleEditor, domain.RolePublisher},
}

// demoEnv is the whole desk: a real embedded JetStream store, real SQLite
// read models kept current by the projection runner, the demo ranking
// seeded through the real commands, and a server over them. Every demo
// user signs in with testPassword.
type demoEnv struct {
	t     *testing.T
	js    *jstest.Env
	ctx   context.Context
	store *jetstream.Store
	cmd   *handler.Handler
	read  *projections.Store
	srv   *Server
	logs  *syncBuffer
}

func newDemoEnv(t *testing.T) *demoEnv {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	js := jstest.Start(t)
	store := js.Store
	read, err := projections.Open(filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = read.Run(runCtx, store, nil) }()
	t.Cleanup(func() { stop(); <-done; read.Close() })
	e := &demoEnv{t: t, js: js, ctx: ctx, store: store, cmd: handler.New(store, nil), read: read, logs: &syncBuffer{}}
	// One real argon2id hash (testHash) for every user: sign-in is real.
	hash := func(string) (string, error) { return testHash(), nil }
	if _, err := demo.Seed(ctx, e.cmd, demo.Options{Password: testPassword, HashPassword: hash, Now: time.Now(),
		AuditHead: read.AuditHead, CrossValidated: read.CrossValidated}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	for name, roles := range extraUsers {
		if _, err := e.cmd.RegisterUser(ctx, domain.System(), domain.RegisterUser{
			Username: name, DisplayName: name, PasswordHash: testHash(), Roles: roles}); err != nil {
			t.Fatalf("register %s: %v", name, err)
		}
	}
	e.caughtUp()
	e.srv, err = New(Config{Commands: e.cmd, Read: read,
		Logger:      slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		SessionKeys: [][]byte{bytes.Repeat([]byte("k"), 32)}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// caughtUp waits until the read models have applied the whole stream.
func (e *demoEnv) caughtUp() {
	e.t.Helper()
	if err := e.read.WaitFor(e.ctx, e.lastSeq()); err != nil {
		e.t.Fatal(err)
	}
}

// lastSeq is the store's last sequence: the same before and after a refused
// request shows that nothing was appended.
func (e *demoEnv) lastSeq() uint64 {
	e.t.Helper()
	seq, err := e.store.LastSequence(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	return seq
}

// client returns a browser-like client of the desk, signed in as user
// ("" for signed out).
func (e *demoEnv) client(user string) *client {
	e.t.Helper()
	c := &client{t: e.t, h: e.srv.Handler(), cookies: map[string]*http.Cookie{}, header: http.Header{},
		peer: "198.51.100." + strconv.Itoa(int(peerCounter.Add(1))%250+1) + ":40000"}
	if user != "" {
		c.login(user)
	}
	return c
}

// page GETs target and parses it, failing unless the status is want.
func (e *demoEnv) page(c *client, target string, want int) *goquery.Document {
	e.t.Helper()
	res, body := c.do(http.MethodGet, target, nil, nil)
	if res.StatusCode != want {
		e.t.Fatalf("GET %s: status %d, want %d; body %.500s", target, res.StatusCode, want, body)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	return doc
}

// post sends a form with a fresh cmd_id (unless values has one) and returns
// the status, the Location and the parsed body.
func (e *demoEnv) post(c *client, target string, values url.Values) (int, string, *goquery.Document) {
	e.t.Helper()
	if values.Get(httpx.CommandIDField) == "" {
		values.Set(httpx.CommandIDField, events.NewID(time.Now()))
	}
	res, body := c.postForm(target, values)
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Location"), doc
}

// mustPost posts a form that must succeed with 303 to the proposal's page.
func (e *demoEnv) mustPost(c *client, id, action string, values url.Values) {
	e.t.Helper()
	status, loc, doc := e.post(c, "/desk/proposals/"+id+"/"+action, values)
	if status != http.StatusSeeOther || loc != "/desk/proposals/"+id {
		e.t.Fatalf("POST %s: status %d Location %q; error %q", action, status, loc, testText(doc, "form-error"))
	}
}

// refused posts a form that must fail with status want and append nothing;
// it returns the page shown instead.
func (e *demoEnv) refused(c *client, target string, values url.Values, want int) *goquery.Document {
	e.t.Helper()
	before := e.lastSeq()
	status, _, doc := e.post(c, target, values)
	if status != want {
		e.t.Fatalf("POST %s: status %d, want %d; error %q", target, status, want, testText(doc, "form-error"))
	}
	if after := e.lastSeq(); after != before {
		e.t.Errorf("POST %s was refused (%d) but appended %d events", target, want, after-before)
	}
	return doc
}

// openProposal opens a proposal for a published entry through the form and
// returns its id.
func (e *demoEnv) openProposal(c *client, entry string) string {
	e.t.Helper()
	status, loc, doc := e.post(c, "/desk/proposals", url.Values{"ranking": {demoRanking}, "entry": {entry}, "title": {"Update " + entry}})
	id, ok := strings.CutPrefix(loc, "/desk/proposals/")
	if status != http.StatusSeeOther || !ok {
		e.t.Fatalf("open: status %d Location %q; error %q", status, loc, testText(doc, "form-error"))
	}
	return id
}

// reviewable opens a proposal for entry with one evidence item and one
// score change, and submits it.
func (e *demoEnv) reviewable(c *client, entry, criterion string, to int) string {
	e.t.Helper()
	id := e.openProposal(c, entry)
	e.mustPost(c, id, "evidence", url.Values{"claim": {"Measured"}, "source_url": {"https://example.com/report"},
		"excerpt": {"It is measured."}, "observed_on": {time.Now().Format(time.DateOnly)}})
	e.mustPost(c, id, "changes", url.Values{"criterion": {criterion}, "to": {strconv.Itoa(to)}, "rationale": {"Measured"}, "evidence": {"e1"}})
	e.mustPost(c, id, "submit", url.Values{})
	return id
}

// testText returns the trimmed text of the elements with a data-testid.
func testText(doc *goquery.Document, id string) string {
	return strings.TrimSpace(doc.Find(`[data-testid="` + id + `"]`).Text())
}

// testCount counts the elements with a data-testid.
func testCount(doc *goquery.Document, id string) int {
	return doc.Find(`[data-testid="` + id + `"]`).Length()
}
