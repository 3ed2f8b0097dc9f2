package webtest

import (
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
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/httpx"
)

// The demo seed's proposals, one in each desk queue.
const (
	DemoRanking   = demo.RankingSlug
	DemoDraft     = "demo-matpool-2"      // the editor's draft
	DemoInReview  = "demo-huawei-cloud-2" // in review, approved by reviewer1
	DemoValidated = "demo-qingjiao-2"     // cross-validated, not published
)

// ExtraUsers are signed-in users beyond the demo's four (editor, reviewer1,
// reviewer2, publisher): eve holds editor and reviewer, max editor and
// publisher, to show that no role lets an author judge their own proposal.
var ExtraUsers = map[string][]string{
	"eve": {domain.RoleEditor, domain.RoleReviewer},
	"max": {domain.RoleEditor, domain.RolePublisher},
}

// DemoEnv is the whole desk: a real embedded JetStream store, real SQLite
// read models kept current by the projection runner, the demo ranking
// seeded through the real commands, and a server over them. Every demo
// user signs in with Password.
type DemoEnv struct {
	T     *testing.T
	JS    *jstest.Env
	Ctx   context.Context
	Store *jetstream.Store
	Cmd   *handler.Handler
	Read  *projections.Store
	Srv   *web.Server
	Logs  *SyncBuffer
}

// NewDemo starts a DemoEnv; tweak adjusts the server's Config.
func NewDemo(t *testing.T, tweak ...func(*web.Config)) *DemoEnv {
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
	e := &DemoEnv{T: t, JS: js, Ctx: ctx, Store: store, Cmd: handler.New(store, nil), Read: read, Logs: &SyncBuffer{}}
	// One real argon2id hash (PasswordHash) for every user: sign-in is real.
	hash := func(string) (string, error) { return PasswordHash(), nil }
	if _, err := demo.Seed(ctx, e.Cmd, demo.Options{Password: Password, HashPassword: hash, Now: time.Now(),
		AuditHead: read.AuditHead, CrossValidated: read.CrossValidated}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	for name, roles := range ExtraUsers {
		if _, err := e.Cmd.RegisterUser(ctx, domain.System(), domain.RegisterUser{
			Username: name, DisplayName: name, PasswordHash: PasswordHash(), Roles: roles}); err != nil {
			t.Fatalf("register %s: %v", name, err)
		}
	}
	e.CaughtUp()
	cfg := web.Config{Commands: e.Cmd, Read: read,
		Logger:      slog.New(slog.NewTextHandler(e.Logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		SessionKeys: [][]byte{SessionKey}}
	for _, f := range tweak {
		f(&cfg)
	}
	e.Srv, err = web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// CaughtUp waits until the read models have applied the whole stream.
func (e *DemoEnv) CaughtUp() {
	e.T.Helper()
	WaitApplied(e.T, e.Ctx, e.Read, e.LastSeq())
}

// LastSeq is the store's last sequence: the same before and after a refused
// request shows that nothing was appended.
func (e *DemoEnv) LastSeq() uint64 {
	e.T.Helper()
	seq, err := e.Store.LastSequence(e.Ctx)
	if err != nil {
		e.T.Fatal(err)
	}
	return seq
}

// Client returns a browser-like client of the desk, signed in as user
// ("" for signed out).
func (e *DemoEnv) Client(user string) *Client {
	e.T.Helper()
	c := &Client{T: e.T, H: e.Srv.Handler(), Cookies: map[string]*http.Cookie{}, Header: http.Header{},
		Peer: "198.51.100." + strconv.Itoa(int(peerCounter.Add(1))%250+1) + ":40000"}
	if user != "" {
		c.Login(user)
	}
	return c
}

// Page GETs target and parses it, failing unless the status is want.
func (e *DemoEnv) Page(c *Client, target string, want int) *goquery.Document {
	e.T.Helper()
	res, body := c.Do(http.MethodGet, target, nil, nil)
	if res.StatusCode != want {
		e.T.Fatalf("GET %s: status %d, want %d; body %.500s", target, res.StatusCode, want, body)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		e.T.Fatal(err)
	}
	return doc
}

// Post sends a form with a fresh cmd_id (unless values has one) and returns
// the status, the Location and the parsed body.
func (e *DemoEnv) Post(c *Client, target string, values url.Values) (int, string, *goquery.Document) {
	e.T.Helper()
	if values.Get(httpx.CommandIDField) == "" {
		values.Set(httpx.CommandIDField, events.NewID(time.Now()))
	}
	res, body := c.PostForm(target, values)
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		e.T.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Location"), doc
}

// MustPost posts a form that must succeed with 303 to the proposal's page
// (marked ?validated=1 after the approval that cross-validated it).
func (e *DemoEnv) MustPost(c *Client, id, action string, values url.Values) {
	e.T.Helper()
	status, loc, doc := e.Post(c, "/desk/proposals/"+id+"/"+action, values)
	if status != http.StatusSeeOther || loc != "/desk/proposals/"+id && loc != "/desk/proposals/"+id+"?validated=1" {
		e.T.Fatalf("POST %s: status %d Location %q; error %q", action, status, loc, TestText(doc, "form-error"))
	}
}

// Refused posts a form that must fail with status want and append nothing;
// it returns the page shown instead.
func (e *DemoEnv) Refused(c *Client, target string, values url.Values, want int) *goquery.Document {
	e.T.Helper()
	before := e.LastSeq()
	status, _, doc := e.Post(c, target, values)
	if status != want {
		e.T.Fatalf("POST %s: status %d, want %d; error %q", target, status, want, TestText(doc, "form-error"))
	}
	if after := e.LastSeq(); after != before {
		e.T.Errorf("POST %s was refused (%d) but appended %d events", target, want, after-before)
	}
	return doc
}

// OpenProposal opens a proposal for a published entry through the form and
// returns its id.
func (e *DemoEnv) OpenProposal(c *Client, entry string) string {
	e.T.Helper()
	status, loc, doc := e.Post(c, "/desk/proposals", url.Values{"ranking": {DemoRanking}, "entry": {entry}, "title": {"Update " + entry}})
	id, ok := strings.CutPrefix(loc, "/desk/proposals/")
	if status != http.StatusSeeOther || !ok {
		e.T.Fatalf("open: status %d Location %q; error %q", status, loc, TestText(doc, "form-error"))
	}
	return id
}

// Reviewable opens a proposal for entry with one evidence item and one
// score change, and submits it.
func (e *DemoEnv) Reviewable(c *Client, entry, criterion string, to int) string {
	e.T.Helper()
	id := e.OpenProposal(c, entry)
	e.MustPost(c, id, "evidence", url.Values{"claim": {"Measured"}, "source_url": {"https://example.com/report"},
		"excerpt": {"It is measured."}, "observed_on": {time.Now().Format(time.DateOnly)}})
	e.MustPost(c, id, "changes", url.Values{"criterion": {criterion}, "to": {strconv.Itoa(to)}, "rationale": {"Measured"}, "evidence": {"e1"}})
	e.MustPost(c, id, "submit", url.Values{})
	return id
}

// TestText returns the trimmed text of the elements with a data-testid.
func TestText(doc *goquery.Document, id string) string {
	return strings.TrimSpace(doc.Find(`[data-testid="` + id + `"]`).Text())
}

// TestCount counts the elements with a data-testid.
func TestCount(doc *goquery.Document, id string) int {
	return doc.Find(`[data-testid="` + id + `"]`).Length()
}
