package projections_test

import (
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
)

// TestCaptureProgress: a ranking's capture progress counts the sources
// its proposals cite (not named documents, not removed items), the
// captured and the failed ones, as the desk shows them; it agrees with a
// count of the evidence rows, and a rebuild writes the same counts.
func TestCaptureProgress(t *testing.T) {
	h, ps, env := seededDesk(t)
	ctx := testContext(t)
	catchUp(t, env, ps)
	before, err := ps.CaptureProgress(ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	const id = "x-progress"
	do(t, "open")(h.OpenProposal(ctx, editor, domain.OpenProposal{CommandID: id + "-open", ID: id,
		Ranking: demo.RankingSlug, Entry: "ppio", Title: "Sources to capture"}))
	for i, u := range []string{"https://ppio.example/a", "https://ppio.example/b", "", "https://ppio.example/c",
		"https://ppio.example/d", "https://ppio.example/e"} {
		c := domain.AddEvidence{CommandID: id + "-ev" + string(rune('1'+i)), Proposal: id, Claim: events.Text{En: "claim"}, SourceURL: u,
			Excerpt: "RTX 4090", ObservedOn: "2026-03-01"}
		if u == "" {
			c.SourceName = "a printed brochure"
		}
		do(t, "evidence")(h.AddEvidence(ctx, editor, c))
	}
	at := time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)
	do(t, "e1")(h.RecordCapture(ctx, domain.Worker(), domain.RecordCapture{CommandID: id + "-cap1", Proposal: id, Evidence: "e1",
		At: at, FinalURL: "https://ppio.example/a", Status: 200, ContentType: "text/html", Size: 42, SHA256: strings.Repeat("ab", 32)}))
	do(t, "e2")(h.RecordCapture(ctx, domain.Worker(), domain.RecordCapture{CommandID: id + "-cap2", Proposal: id, Evidence: "e2",
		At: at, Failure: domain.CaptureTimeout}))
	do(t, "e5")(h.RecordCapture(ctx, domain.Worker(), domain.RecordCapture{CommandID: id + "-cap5", Proposal: id, Evidence: "e5",
		At: at, Failure: domain.CaptureUnreachable}))
	do(t, "remove e5")(h.RemoveEvidence(ctx, editor, domain.RemoveEvidence{CommandID: id + "-rm5", Proposal: id, Evidence: "e5"}))
	catchUp(t, env, ps)

	got, err := ps.CaptureProgress(ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	// e1, e2, e4, e6 cite a URL and are held; e1 captured, e2 failed.
	want := projections.CaptureProgress{Sources: before.Sources + 4, Captured: before.Captured + 1, Failed: before.Failed + 1}
	if got != want {
		t.Errorf("progress %+v, want %+v (before the proposal: %+v)", got, want, before)
	}
	var counted projections.CaptureProgress
	if err := ps.DB().QueryRowContext(ctx, `SELECT count(*), coalesce(sum(e.capture_state='captured'),0), coalesce(sum(e.capture_state='failed'),0)
		FROM evidence e JOIN proposals p ON p.id=e.proposal
		WHERE p.ranking=? AND e.source_url<>'' AND e.removed_revision IS NULL`, demo.RankingSlug).
		Scan(&counted.Sources, &counted.Captured, &counted.Failed); err != nil {
		t.Fatal(err)
	}
	if got != counted {
		t.Errorf("progress %+v, a count of the rows %+v", got, counted)
	}
	if none, err := ps.CaptureProgress(ctx, "no-such-ranking"); err != nil || none != (projections.CaptureProgress{}) {
		t.Errorf("a ranking without sources: %+v, %v", none, err)
	}
	if _, err := projections.Verify(ctx, env.Store, ps.DB()); err != nil {
		t.Errorf("verify: %v", err)
	}
}
