package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections/history"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
)

// TestPreviewLargeRanking previews the first edition of a ranking of
// 2,000 entries (500 under -race), every one a new entry
// of a cross-validated proposal written in bulk: the page shows one page
// of the ranking and a bounded list of the changes and new entries, with
// counts of the rest, and the last page ends at the last rank.
func TestPreviewLargeRanking(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 10,000 cross-validated proposals; -short skips it")
	}
	// 2,000: the same paths as at 10,000 (measured by hand: creation
	// ~26 s cold, loading 10,000 proposals into the command handler;
	// each page ~0.5 s), which the suite cannot afford.
	entries := 2_000
	if raceEnabled {
		entries = 500
	}
	e := newPreviewEnv(t)
	slug, ids, err := history.LargeRanking(e.Ctx, e.Store, history.ReadyEdition{Entries: entries, Criteria: 1, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	token, hash := auth.NewLinkToken()
	publisher := domain.Actor{Name: "publisher", Roles: []string{domain.RolePublisher}}
	start := time.Now()
	res, err := e.Cmd.CreatePreview(e.Ctx, publisher, domain.CreatePreview{CommandID: events.NewID(time.Now()), Ranking: slug,
		Proposals: ids, ExpiresAt: time.Now().Add(time.Hour).UTC().Format(time.RFC3339), TokenHash: hash})
	if err != nil || hash != command.PreviewTokenHash(token) {
		t.Fatalf("create: %v", err)
	}
	t.Logf("preview of %d proposals created in %s", len(ids), time.Since(start).Round(time.Millisecond))
	if err := e.Read.WaitFor(e.Ctx, res.Sequence); err != nil {
		t.Fatal(err)
	}

	start = time.Now()
	resp, body := e.Get(command.PreviewPath(token))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("preview: %d %.300s", resp.StatusCode, body)
	}
	t.Logf("page 1 rendered in %s, %d bytes", time.Since(start).Round(time.Millisecond), len(body))
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
	for sel, want := range map[string]int{
		`[data-testid="ranking-row"]`:    100,
		`[data-testid="change-row"]`:     200,
		`[data-testid="new-entries"] li`: 200,
	} {
		if got := doc.Find(sel).Length(); got != want {
			t.Errorf("%s: %d, want %d", sel, got, want)
		}
	}
	for sel, want := range map[string]int{`[data-testid="preview-more"]`: entries - 200, `[data-testid="preview-more-entries"]`: entries - 200} {
		if got := doc.Find(sel).Text(); !strings.Contains(got, fmt.Sprint(want)) {
			t.Errorf("%s: %q does not say %d", sel, got, want)
		}
	}
	if len(body) > 600_000 {
		t.Errorf("page 1 is %d bytes", len(body))
	}
	last := e.Page(fmt.Sprintf("%s?page=%d", command.PreviewPath(token), entries/100))
	rows := last.Find(`[data-testid="ranking-row"]`)
	if got := rows.Last().AttrOr("data-rank", ""); rows.Length() != 100 || got != fmt.Sprint(entries) {
		t.Errorf("last page: %d rows ending at rank %s", rows.Length(), got)
	}
	if resp, _ := e.Get(fmt.Sprintf("%s?page=%d", command.PreviewPath(token), entries/100+1)); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a page past the last: %d", resp.StatusCode)
	}
}
