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

// TestEvidenceCaptures: the evidence rows carry each item's capture as the
// worker recorded it (a failure with the attempts made), the audit trail
// shows the hash, and a replay of the stream writes the same rows (what
// crossrank verify checks).
func TestEvidenceCaptures(t *testing.T) {
	h, ps, env := seededDesk(t)
	ctx := testContext(t)
	const id = "x-capture"
	do(t, "open")(h.OpenProposal(ctx, editor, domain.OpenProposal{CommandID: id + "-open", ID: id,
		Ranking: demo.RankingSlug, Entry: "ppio", Title: "Sources that stay checkable"}))
	for i, u := range []string{"https://ppio.example/pricing", "https://ppio.example/docs", "", "https://ppio.example/gone"} {
		c := domain.AddEvidence{CommandID: id + "-ev" + string(rune('1'+i)), Proposal: id, Claim: events.Text{En: "claim"}, SourceURL: u,
			Excerpt: "RTX 4090", ObservedOn: "2026-03-01"}
		if u == "" {
			c.SourceName = "a printed brochure"
		}
		do(t, "evidence")(h.AddEvidence(ctx, editor, c))
	}
	at := time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)
	sha := strings.Repeat("ab", 32)
	do(t, "e1")(h.RecordCapture(ctx, domain.Worker(), domain.RecordCapture{CommandID: id + "-cap1", Proposal: id, Evidence: "e1",
		At: at, FinalURL: "https://ppio.example/pricing/", Status: 200, ContentType: "text/html", Size: 42, SHA256: sha,
		QuoteFound: true, QuoteChecked: true}))
	do(t, "e2")(h.RecordCapture(ctx, domain.Worker(), domain.RecordCapture{CommandID: id + "-cap2", Proposal: id, Evidence: "e2",
		At: at, FinalURL: "https://ppio.example/docs", Status: 200, ContentType: "application/pdf", Size: 7, SHA256: sha}))
	do(t, "e4")(h.RecordCapture(ctx, domain.Worker(), domain.RecordCapture{CommandID: id + "-cap4", Proposal: id, Evidence: "e4",
		At: at, Failure: domain.CaptureTimeout, Attempts: 12}))
	catchUp(t, env, ps)

	d, err := ps.Proposal(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]projections.CaptureView{
		"e1": {State: domain.CaptureDone, SHA256: sha, FinalURL: "https://ppio.example/pricing/", Status: 200,
			ContentType: "text/html", Size: 42, At: "2026-03-02T08:00:00Z", QuoteFound: true, QuoteChecked: true},
		"e2": {State: domain.CaptureDone, SHA256: sha, FinalURL: "https://ppio.example/docs", Status: 200,
			ContentType: "application/pdf", Size: 7, At: "2026-03-02T08:00:00Z"},
		"e3": {State: domain.CaptureNone},
		"e4": {State: domain.CaptureFailed, At: "2026-03-02T08:00:00Z", Reason: "timeout", Attempts: 12},
	}
	if len(d.Evidence) != len(want) {
		t.Fatalf("%d evidence rows, want %d", len(d.Evidence), len(want))
	}
	for _, e := range d.Evidence {
		if e.Capture != want[e.ID] {
			t.Errorf("%s: capture %+v, want %+v", e.ID, e.Capture, want[e.ID])
		}
	}

	page, err := ps.Audit(ctx, projections.AuditFilter{Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := page.Rows[2]; got.Type != events.TypeEvidenceCaptured || got.After != sha || got.AuthVia != events.ViaWorker ||
		got.Actor != domain.SystemActor {
		t.Errorf("audit row of the capture: %+v", got)
	}
	if got := page.Rows[0]; got.Type != events.TypeEvidenceCaptureFailed || got.After != "timeout" {
		t.Errorf("audit row of the failure: %+v", got)
	}

	if _, err := projections.Verify(ctx, env.Store, ps.DB()); err != nil {
		t.Errorf("verify: %v", err)
	}
}
