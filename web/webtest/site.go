package webtest

import (
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
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/webtest/openapicheck"
)

// SiteEnv is the demo ranking on a real embedded JetStream store with real
// SQLite read models kept current by the projection runner, and a server
// over them, read as a reader who is not signed in reads it.
type SiteEnv struct {
	T     *testing.T
	Ctx   context.Context
	Store *jetstream.Store
	Cmd   *handler.Handler
	Read  *projections.Store
	Srv   *web.Server
}

// NewSite starts a SiteEnv.
func NewSite(t *testing.T) *SiteEnv {
	t.Helper()
	return NewSiteWith(t, nil)
}

// NewSiteWith is NewSite with the server's configuration changed by
// change (nil: none).
func NewSiteWith(t *testing.T, change func(*web.Config)) *SiteEnv {
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
	e := &SiteEnv{T: t, Ctx: ctx, Store: store, Cmd: handler.New(store, nil), Read: read}
	followed := make(chan struct{})
	go func() { defer close(followed); _ = e.Cmd.Follow(runCtx, store) }()
	t.Cleanup(func() { stop(); <-followed })
	if _, err := demo.Seed(ctx, e.Cmd, demo.Options{Password: "pw", HashPassword: demoFakeHash, Now: time.Now(),
		AuditHead: read.AuditHead, CrossValidated: read.CrossValidated}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	e.CaughtUp()
	cfg := web.Config{Commands: e.Cmd, Read: read, Logger: slog.New(slog.DiscardHandler),
		SessionKeys: [][]byte{SessionKey}}
	if change != nil {
		change(&cfg)
	}
	e.Srv, err = web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// CaughtUp waits until the read models have applied the whole stream.
func (e *SiteEnv) CaughtUp() {
	e.T.Helper()
	last, err := e.Store.LastSequence(e.Ctx)
	if err != nil {
		e.T.Fatal(err)
	}
	if err := e.Read.WaitFor(e.Ctx, last); err != nil {
		e.T.Fatal(err)
	}
}

// SitePublisher is the demo's publisher, who releases a SiteEnv's editions.
var SitePublisher = domain.Actor{Name: "publisher", Roles: []string{domain.RolePublisher}}

// Publish releases the given cross-validated proposals as the next
// edition, the way the publish page does, and waits for the read models.
func (e *SiteEnv) Publish(proposals ...string) int {
	e.T.Helper()
	pv, _, err := e.Cmd.PreviewEdition(e.Ctx, demo.RankingSlug, proposals)
	if err != nil {
		e.T.Fatalf("preview: %v", err)
	}
	head, seq, _ := e.Read.AuditHead(e.Ctx)
	candidates, _ := e.Read.CrossValidated(e.Ctx, demo.RankingSlug)
	res, err := e.Cmd.Publish(e.Ctx, SitePublisher, domain.PublishEdition{CommandID: events.NewID(time.Now()), Ranking: demo.RankingSlug,
		Proposals: proposals, PreviewHash: pv.Hash, AuditHead: head, AuditSeq: seq, Note: "test edition", Candidates: candidates})
	if err != nil {
		e.T.Fatalf("publish: %v", err)
	}
	if err := e.Read.WaitFor(e.Ctx, res.Sequence); err != nil {
		e.T.Fatal(err)
	}
	ed, err := e.Cmd.Edition(e.Ctx, demo.RankingSlug)
	if err != nil {
		e.T.Fatal(err)
	}
	return ed.Number
}

// Vote casts reviewer2's approval on the proposal waiting in review: an
// event that changes no published value.
func (e *SiteEnv) Vote() {
	e.T.Helper()
	p, err := e.Cmd.Proposal(e.Ctx, "demo-huawei-cloud-2")
	if err != nil {
		e.T.Fatal(err)
	}
	var all []string
	for _, ev := range p.Evidence {
		all = append(all, ev.EvidenceID)
	}
	res, err := e.Cmd.CastVote(e.Ctx, domain.Actor{Name: "reviewer2", Roles: []string{domain.RoleReviewer}},
		domain.CastVote{CommandID: events.NewID(time.Now()), Proposal: "demo-huawei-cloud-2", Revision: p.Revision, Verdict: events.Approve, VerifiedEvidence: all})
	if err != nil {
		e.T.Fatalf("vote: %v", err)
	}
	if err := e.Read.WaitFor(e.Ctx, res.Sequence); err != nil {
		e.T.Fatal(err)
	}
}

// Get requests target from the handler; header pairs are name, value.
func (e *SiteEnv) Get(target string, header ...string) (*http.Response, string) {
	e.T.Helper()
	r := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	e.Srv.Handler().ServeHTTP(w, r)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	openapicheck.Check(e.T, http.MethodGet, target, r.Header, nil, res, b)
	return res, string(b)
}

// Page gets an HTML page, fails unless it is 200, and parses it.
func (e *SiteEnv) Page(target string, header ...string) *goquery.Document {
	e.T.Helper()
	res, body := e.Get(target, header...)
	if res.StatusCode != http.StatusOK {
		e.T.Fatalf("GET %s: %d %.400s", target, res.StatusCode, body)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		e.T.Fatal(err)
	}
	return doc
}

// Testids returns the attribute attr of every element with data-testid id.
func Testids(doc *goquery.Document, id, attr string) []string {
	var out []string
	doc.Find(`[data-testid="` + id + `"]`).Each(func(_ int, s *goquery.Selection) {
		v, _ := s.Attr(attr)
		out = append(out, v)
	})
	return out
}

// CrossValidate takes a score proposal for entry through the desk's
// workflow (open, evidence, change, submit, two approvals) and returns its
// id; the evidence is the one item given.
func (e *SiteEnv) CrossValidate(entry, criterion string, to int, ev domain.AddEvidence) string {
	e.T.Helper()
	id := "test-" + entry + "-" + criterion
	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	must := func(_ handler.Result, err error) {
		e.T.Helper()
		if err != nil {
			e.T.Fatalf("%s: %v", id, err)
		}
	}
	must(e.Cmd.OpenProposal(e.Ctx, editor, domain.OpenProposal{CommandID: id + "-open", ID: id, Ranking: demo.RankingSlug, Entry: entry, Title: "Test score"}))
	ev.CommandID, ev.Proposal = id+"-ev", id
	must(e.Cmd.AddEvidence(e.Ctx, editor, ev))
	must(e.Cmd.ProposeScore(e.Ctx, editor, domain.ProposeScore{CommandID: id + "-score", Proposal: id, Criterion: criterion, To: to,
		Rationale: events.Text{En: "test rationale"}, Evidence: []string{"e1"}}))
	must(e.Cmd.Submit(e.Ctx, editor, domain.Submit{CommandID: id + "-submit", Proposal: id}))
	for _, r := range []string{"reviewer1", "reviewer2"} {
		must(e.Cmd.CastVote(e.Ctx, domain.Actor{Name: r, Roles: []string{domain.RoleReviewer}},
			domain.CastVote{CommandID: id + "-vote-" + r, Proposal: id, Revision: 1, Verdict: events.Approve, VerifiedEvidence: []string{"e1"}}))
	}
	e.CaughtUp()
	return id
}
