package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/server"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/auth"
)

// served is the wiring serve runs, on a real embedded NATS and SQLite: the
// read models and the command handler follow the stream, and the HTTP
// handler serves the site, the API and /metrics.
type served struct {
	t     *testing.T
	store events.Store
	url   string
	token string // a bearer token of the editor "ed"
}

func serve(t *testing.T, ctx context.Context) *served {
	js := jstest.Start(t)
	jstest.DefineRanking(t, js.Store, events.RankingDefined{
		Slug: "gpu", Title: events.Text{Zh: "GPU 云", En: "GPU clouds"},
		Categories: []events.Category{{Slug: "cloud", Name: events.Text{Zh: "云", En: "Cloud"}}},
		Criteria:   []events.Criterion{{Slug: "price", Name: events.Text{Zh: "价格", En: "Price"}, Weight: 100}},
		Quorum:     domain.DefaultQuorum,
	}, nil)
	read, err := projections.Open(filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Events: js.Store, Read: read, Addr: "127.0.0.1:0",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = read.Run(runCtx, js.Store, nil) })
	wg.Go(func() { _ = srv.Commands.Follow(runCtx, js.Store) })
	t.Cleanup(func() { stop(); wg.Wait(); read.Close() })
	hs := httptest.NewServer(srv.HTTP.Handler)
	t.Cleanup(hs.Close)

	hash, err := auth.HashPassword("a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	sys := domain.System()
	if _, err := srv.Commands.RegisterUser(ctx, sys, domain.RegisterUser{Username: "ed", DisplayName: "Ed",
		PasswordHash: hash, Roles: []string{domain.RoleEditor}}); err != nil {
		t.Fatal(err)
	}
	id, _, full, tokenHash := auth.NewToken(time.Now())
	res, err := srv.Commands.IssueToken(ctx, sys, domain.IssueToken{User: "ed", TokenID: id, Name: "test", Hash: tokenHash})
	if err != nil {
		t.Fatal(err)
	}
	if err := read.WaitFor(ctx, res.Sequence); err != nil {
		t.Fatal(err)
	}
	return &served{t: t, store: js.Store, url: hs.URL, token: full}
}

// post sends a command through the API, answered once stored, and returns
// the id it reports.
func (s *served) post(ctx context.Context, path string, body any) (string, error) {
	js, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url+path+"?nowait=1", bytes.NewReader(js))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var out struct {
		ID string `json:"id"`
	}
	if res.StatusCode/100 != 2 {
		return "", fmt.Errorf("POST %s: %s", path, res.Status)
	}
	err = json.NewDecoder(res.Body).Decode(&out)
	return out.ID, err
}

// metric reads one unlabelled sample from the served /metrics.
func (s *served) metric(name string) float64 {
	s.t.Helper()
	res, err := http.Get(s.url + "/metrics")
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				s.t.Fatal(err)
			}
			return f
		}
	}
	s.t.Fatalf("/metrics has no %s", name)
	return 0
}

// TestServedCommandsChain drives commands from concurrent API clients
// through the served HTTP handler and sees appends sent as chain links
// (crossrank_appends_chained_total): the served handler chains, as the
// bench measures it. Every command answered is stored once.
func TestServedCommandsChain(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s := serve(t, ctx)
	before := s.metric("crossrank_appends_chained_total")
	const clients, evidence = 16, 6
	opened, added := 0, 0
	// Whether two commands overlap is up to the scheduler; a few rounds of
	// 16 clients make it all but certain.
	for round := 0; round < 10 && s.metric("crossrank_appends_chained_total") == before; round++ {
		var wg sync.WaitGroup
		errs := make(chan error, clients)
		for c := range clients {
			wg.Go(func() {
				entry := fmt.Sprintf("cloud-%d-%02d", round, c)
				p, err := s.post(ctx, "/api/v1/proposals", map[string]any{"ranking": "gpu", "entry": entry, "title": "Add " + entry,
					"new_entry": map[string]any{"name": map[string]string{"zh": entry, "en": entry}, "category": "cloud"}})
				for i := 0; err == nil && i < evidence; i++ {
					_, err = s.post(ctx, "/api/v1/proposals/"+p+"/evidence", map[string]any{"claim": fmt.Sprintf("claim %d", i),
						"source_name": "Market overview", "excerpt": "it is cheap", "observed_on": "2026-01-31"})
				}
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		opened, added = opened+clients, added+clients*evidence
	}
	if got := s.metric("crossrank_appends_chained_total") - before; got == 0 {
		t.Fatalf("%d commands from %d clients at once, none appended as a chain link", opened+added, clients)
	}
	var gotOpened, gotAdded int
	if err := s.store.Replay(ctx, 1, func(ev events.Event) error {
		switch ev.Data.(type) {
		case *events.ProposalOpened:
			gotOpened++
		case *events.EvidenceAdded:
			gotAdded++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if gotOpened != opened || gotAdded != added {
		t.Errorf("stored %d proposals with %d evidence items, want %d with %d", gotOpened, gotAdded, opened, added)
	}
}
