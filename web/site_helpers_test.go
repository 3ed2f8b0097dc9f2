package web

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
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
)

// fakeHash stands in for argon2id: the demo seed only needs a PHC
// string, and the public site has no sign-in.
func fakeHash(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }

// siteEnv is the demo ranking on a real embedded JetStream store with real
// SQLite read models kept current by the projection runner, and a server
// over them.
type siteEnv struct {
	t     *testing.T
	ctx   context.Context
	store *jetstream.Store
	cmd   *handler.Handler
	read  *projections.Store
	srv   *Server
}

// newSiteEnvWith is newSiteEnv with the server's configuration changed by
// change (nil: none).
func newSiteEnvWith(t *testing.T, change func(*Config)) *siteEnv {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	store := jstest.Start(t).Store
	read, err := projections.Open(filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = read.Run(runCtx, store, nil) }()
	t.Cleanup(func() { stop(); <-done; read.Close() })
	e := &siteEnv{t: t, ctx: ctx, store: store, cmd: handler.New(store, nil), read: read}
	followed := make(chan struct{})
	go func() { defer close(followed); _ = e.cmd.Follow(runCtx, store) }()
	t.Cleanup(func() { stop(); <-followed })
	if _, err := demo.Seed(ctx, e.cmd, demo.Options{Password: "pw", HashPassword: fakeHash, Now: time.Now(),
		AuditHead: read.AuditHead, CrossValidated: read.CrossValidated}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	e.caughtUp()
	cfg := Config{Commands: e.cmd, Read: read, Logger: slog.New(slog.DiscardHandler),
		SessionKeys: [][]byte{bytes.Repeat([]byte("k"), 32)}}
	if change != nil {
		change(&cfg)
	}
	e.srv, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// caughtUp waits until the read models have applied the whole stream.
func (e *siteEnv) caughtUp() {
	e.t.Helper()
	last, err := e.store.LastSequence(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.read.WaitFor(e.ctx, last); err != nil {
		e.t.Fatal(err)
	}
}

var sitePublisher = domain.Actor{Name: "publisher", Roles: []string{domain.RolePublisher}}

// publish releases the given cross-validated proposals as the next
// edition, the way the publish page does, and waits for the read models.
func (e *siteEnv) publish(proposals ...string) int {
	e.t.Helper()
	pv, _, err := e.cmd.PreviewEdition(e.ctx, demo.RankingSlug, proposals)
	if err != nil {
		e.t.Fatalf("preview: %v", err)
	}
	head, seq, _ := e.read.AuditHead(e.ctx)
	candidates, _ := e.read.CrossValidated(e.ctx, demo.RankingSlug)
	res, err := e.cmd.Publish(e.ctx, sitePublisher, domain.PublishEdition{CommandID: events.NewID(time.Now()), Ranking: demo.RankingSlug,
		Proposals: proposals, PreviewHash: pv.Hash, AuditHead: head, AuditSeq: seq, Note: "test edition", Candidates: candidates})
	if err != nil {
		e.t.Fatalf("publish: %v", err)
	}
	if err := e.read.WaitFor(e.ctx, res.Sequence); err != nil {
		e.t.Fatal(err)
	}
	ed, err := e.cmd.Edition(e.ctx, demo.RankingSlug)
	if err != nil {
		e.t.Fatal(err)
	}
	return ed.Number
}

// get requests target from the handler; header pairs are name, value.
func (e *siteEnv) get(target string, header ...string) (*http.Response, string) {
	e.t.Helper()
	r := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(w, r)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	checkOpenAPI(e.t, http.MethodGet, target, r.Header, nil, res, b)
	return res, string(b)
}

// page gets an HTML page, fails unless it is 200, and parses it.
func (e *siteEnv) page(target string, header ...string) *goquery.Document {
	e.t.Helper()
	res, body := e.get(target, header...)
	if res.StatusCode != http.StatusOK {
		e.t.Fatalf("GET %s: %d %.400s", target, res.StatusCode, body)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	return doc
}

// testids returns the attribute attr of every element with data-testid id.
func testids(doc *goquery.Document, id, attr string) []string {
	var out []string
	doc.Find(`[data-testid="` + id + `"]`).Each(func(_ int, s *goquery.Selection) {
		v, _ := s.Attr(attr)
		out = append(out, v)
	})
	return out
}

// crossValidate takes a score proposal for entry through the desk's
// workflow (open, evidence, change, submit, two approvals) and returns its
// id; the evidence is the one item given.
func (e *siteEnv) crossValidate(entry, criterion string, to int, ev domain.AddEvidence) string {
	e.t.Helper()
	id := "test-" + entry + "-" + criterion
	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	must := func(_ handler.Result, err error) {
		e.t.Helper()
		if err != nil {
			e.t.Fatalf("%s: %v", id, err)
		}
	}
	must(e.cmd.OpenProposal(e.ctx, editor, domain.OpenProposal{CommandID: id + "-open", ID: id, Ranking: demo.RankingSlug, Entry: entry, Title: "Test score"}))
	ev.CommandID, ev.Proposal = id+"-ev", id
	must(e.cmd.AddEvidence(e.ctx, editor, ev))
	must(e.cmd.ProposeScore(e.ctx, editor, domain.ProposeScore{CommandID: id + "-score", Proposal: id, Criterion: criterion, To: to,
		Rationale: "test rationale", Evidence: []string{"e1"}}))
	must(e.cmd.Submit(e.ctx, editor, domain.Submit{CommandID: id + "-submit", Proposal: id}))
	for _, r := range []string{"reviewer1", "reviewer2"} {
		must(e.cmd.CastVote(e.ctx, domain.Actor{Name: r, Roles: []string{domain.RoleReviewer}},
			domain.CastVote{CommandID: id + "-vote-" + r, Proposal: id, Revision: 1, Verdict: events.Approve, VerifiedEvidence: []string{"e1"}}))
	}
	e.caughtUp()
	return id
}
