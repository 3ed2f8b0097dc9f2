package projections_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
)

// seededDesk runs the demo seed through the real commands into an embedded
// store, with the read models tailing it, and waits until they caught up.
func seededDesk(t *testing.T) (*handler.Handler, *projections.Store, *jstest.Env) {
	t.Helper()
	ctx := testContext(t)
	env := jstest.Start(t)
	h := handler.New(env.Store, nil)
	ps := open(t, filepath.Join(t.TempDir(), "read.db"))
	runCtx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = ps.Run(runCtx, env.Store, nil) })
	t.Cleanup(func() { stop(); wg.Wait() }) // before open's Close: cleanups run last-in first-out
	if _, err := demo.Seed(ctx, h, demo.Options{Password: "pw", HashPassword: fakeHash, Now: time.Now(),
		AuditHead: ps.AuditHead, CrossValidated: ps.CrossValidated}); err != nil {
		t.Fatal(err)
	}
	catchUp(t, env, ps)
	return h, ps, env
}

func catchUp(t *testing.T, env *jstest.Env, ps *projections.Store) {
	t.Helper()
	ctx := testContext(t)
	last, err := env.Store.LastSequence(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := ps.WaitFor(ctx, last); err != nil {
		t.Fatal(err)
	}
}

func TestAuditFilters(t *testing.T) {
	_, ps, env := seededDesk(t)
	ctx := testContext(t)
	last, _ := env.Store.LastSequence(ctx)
	today := time.Now().UTC().Format(time.DateOnly)
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)

	all := 0
	if err := ps.AuditEach(ctx, projections.AuditFilter{}, func(projections.AuditRow) error { all++; return nil }); err != nil {
		t.Fatal(err)
	}
	if uint64(all) != last {
		t.Fatalf("AuditEach without a filter gave %d rows, the stream holds %d events", all, last)
	}

	tests := []struct {
		name  string
		f     projections.AuditFilter
		check func(projections.AuditRow) bool
		some  bool // at least one row must match
	}{
		{"proposal", projections.AuditFilter{Proposal: "demo-qingjiao-2"},
			func(r projections.AuditRow) bool { return r.Proposal == "demo-qingjiao-2" }, true},
		{"entry of a ranking", projections.AuditFilter{Ranking: demo.RankingSlug, Entry: "matpool"},
			func(r projections.AuditRow) bool { return r.Entry == "matpool" && r.Ranking == demo.RankingSlug }, true},
		{"actor", projections.AuditFilter{Actor: "reviewer2"},
			func(r projections.AuditRow) bool { return r.Actor == "reviewer2" }, true},
		{"type", projections.AuditFilter{Type: "crossrank.edition.published.v1"},
			func(r projections.AuditRow) bool {
				return r.Type == "crossrank.edition.published.v1" && r.Actor == "publisher"
			}, true},
		{"today", projections.AuditFilter{From: today, To: today},
			func(r projections.AuditRow) bool { return r.At.UTC().Format(time.DateOnly) == today }, true},
		{"from tomorrow", projections.AuditFilter{From: tomorrow}, func(projections.AuditRow) bool { return false }, false},
		{"combined", projections.AuditFilter{Actor: "editor", Proposal: "demo-matpool-2", Type: events.TypeProposalOpened},
			func(r projections.AuditRow) bool {
				return r.Actor == "editor" && r.Proposal == "demo-matpool-2" && r.Type == events.TypeProposalOpened
			}, true},
		// An older version of the type filters the same: a proposal opened
		// as opened.v1 and one opened as v2 are one kind of event.
		{"older version", projections.AuditFilter{Type: "crossrank.proposal.opened.v1"},
			func(r projections.AuditRow) bool { return r.Type == events.TypeProposalOpened }, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.f.Limit = projections.MaxAuditLimit
			page, err := ps.Audit(ctx, tc.f)
			if err != nil {
				t.Fatal(err)
			}
			if tc.some != (len(page.Rows) > 0) {
				t.Fatalf("%d rows, want some: %v", len(page.Rows), tc.some)
			}
			for _, r := range page.Rows {
				if !tc.check(r) {
					t.Errorf("row %d (%s by %s, proposal %q, entry %q) does not match", r.Seq, r.Type, r.Actor, r.Proposal, r.Entry)
				}
			}
			// The page agrees with a scan of the whole trail.
			want := 0
			_ = ps.AuditEach(ctx, projections.AuditFilter{}, func(r projections.AuditRow) error {
				if tc.check(r) {
					want++
				}
				return nil
			})
			if len(page.Rows) != want {
				t.Errorf("%d rows, a full scan finds %d", len(page.Rows), want)
			}
		})
	}

	if _, err := ps.Audit(ctx, projections.AuditFilter{From: "31/01/2026"}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("a malformed day: err %v, want ErrInvalid", err)
	}
}

func TestAuditKeysetPagination(t *testing.T) {
	_, ps, env := seededDesk(t)
	ctx := testContext(t)
	last, _ := env.Store.LastSequence(ctx)

	// Walking older pages visits every sequence once, newest first.
	var seen []uint64
	var pages []projections.AuditPage
	f := projections.AuditFilter{Limit: 40}
	for {
		page, err := ps.Audit(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, page)
		for _, r := range page.Rows {
			seen = append(seen, r.Seq)
		}
		if page.Older == 0 {
			break
		}
		f.Before = page.Older
	}
	if uint64(len(seen)) != last || seen[0] != last || seen[len(seen)-1] != 1 {
		t.Fatalf("walked %d rows from %d to %d; the stream holds %d", len(seen), seen[0], seen[len(seen)-1], last)
	}
	if !slices.IsSortedFunc(seen, func(a, b uint64) int { return int(b) - int(a) }) {
		t.Fatal("rows are not newest first")
	}
	if pages[0].Newer != 0 {
		t.Errorf("the first page has a newer cursor %d", pages[0].Newer)
	}

	// Going back with After from the second page gives the first page again.
	back, err := ps.Audit(ctx, projections.AuditFilter{Limit: 40, After: pages[1].Newer})
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Rows) != len(pages[0].Rows) || back.Rows[0].Seq != pages[0].Rows[0].Seq || back.Newer != 0 {
		t.Errorf("newer page: %d rows from %d (newer %d), want the first page's %d rows from %d",
			len(back.Rows), back.Rows[0].Seq, back.Newer, len(pages[0].Rows), pages[0].Rows[0].Seq)
	}
	if back.Older != pages[0].Older {
		t.Errorf("newer page's older cursor %d, want %d", back.Older, pages[0].Older)
	}
}

func TestDeskQueries(t *testing.T) {
	h, ps, env := seededDesk(t)
	ctx := testContext(t)

	ready, err := ps.ProposalsWithStatus(ctx, demo.RankingSlug, domain.StatusCrossValidated)
	if err != nil || len(ready) != 1 || ready[0].ID != "demo-qingjiao-2" {
		t.Errorf("cross-validated: %+v, %v; want demo-qingjiao-2", ready, err)
	}

	changes, err := ps.EntryChanges(ctx, demo.RankingSlug, "qingjiao")
	if err != nil || len(changes) == 0 {
		t.Fatalf("entry changes: %d, %v", len(changes), err)
	}
	for _, c := range changes {
		if c.Edition != 1 || c.Proposal != "demo-qingjiao-1" || c.PublishedAt.IsZero() {
			t.Errorf("change %+v: want edition 1 by demo-qingjiao-1", c)
		}
	}

	admin := domain.System()
	for _, tok := range []struct{ id, name string }{
		{"0190a000-0000-7000-8000-000000000001", "ci"}, {"0190a000-0000-7000-8000-000000000002", "laptop"},
	} {
		if _, err := h.IssueToken(ctx, admin, domain.IssueToken{User: "editor", TokenID: tok.id, Name: tok.name,
			Hash:      strings.Repeat("a", 64),
			ExpiresAt: time.Now().Add(48 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.RevokeToken(ctx, admin, domain.RevokeToken{User: "editor", TokenID: "0190a000-0000-7000-8000-000000000001"}); err != nil {
		t.Fatal(err)
	}
	catchUp(t, env, ps)
	toks, err := ps.Tokens(ctx, "editor")
	if err != nil || len(toks) != 2 {
		t.Fatalf("tokens: %+v, %v", toks, err)
	}
	byName := map[string]projections.TokenRow{}
	for _, tk := range toks {
		byName[tk.Name] = tk
	}
	if !byName["ci"].Revoked || byName["laptop"].Revoked || byName["laptop"].ExpiresAt.IsZero() || byName["laptop"].Expired(time.Now()) {
		t.Errorf("tokens: %+v", byName)
	}
	if !byName["laptop"].Expired(time.Now().Add(72 * time.Hour)) {
		t.Error("a token is not expired after its expiry")
	}
	if other, _ := ps.Tokens(ctx, "reviewer1"); len(other) != 0 {
		t.Errorf("reviewer1 has tokens %+v", other)
	}
	if every, _ := ps.Tokens(ctx, ""); len(every) != 2 {
		t.Errorf("all tokens: %d, want 2", len(every))
	}
}
