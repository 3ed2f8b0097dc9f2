package projections_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
)

// TestSourcesToReverify: evidence behind a published score whose captured
// source a re-check found changed or gone is listed for its ranking, with
// its drift, the lost quote first; a source never found different is not;
// the published captures are what the re-check fetches; and a replay
// writes the same rows.
func TestSourcesToReverify(t *testing.T) {
	h, ps, env := seededDesk(t)
	ctx := testContext(t)
	const id = "x-drift"
	do(t, "open")(h.OpenProposal(ctx, editor, domain.OpenProposal{CommandID: id + "-open", ID: id,
		Ranking: demo.RankingSlug, Entry: "ppio", Title: "Sources that drift"}))
	urls := []string{"https://ppio.example/pricing", "https://ppio.example/docs", "https://ppio.example/gone", "https://ppio.example/uncited"}
	for i, u := range urls {
		n := string(rune('1' + i))
		do(t, "evidence")(h.AddEvidence(ctx, editor, domain.AddEvidence{CommandID: id + "-ev" + n, Proposal: id, Claim: events.Text{En: "claim " + n},
			SourceURL: u, Excerpt: "RTX 4090", ObservedOn: "2026-03-01"}))
	}
	do(t, "score")(h.ProposeScore(ctx, editor, domain.ProposeScore{CommandID: id + "-score", Proposal: id,
		Criterion: demo.CritOnboarding, To: 10, Rationale: events.Text{En: "see the sources"}, Evidence: []string{"e1", "e2", "e3"}}))
	do(t, "submit")(h.Submit(ctx, editor, domain.Submit{CommandID: id + "-submit", Proposal: id}))
	for _, r := range []string{"reviewer1", "reviewer2"} {
		do(t, r)(h.CastVote(ctx, reviewer(r), domain.CastVote{CommandID: id + "-" + r, Proposal: id, Revision: 1,
			Verdict: events.Approve, VerifiedEvidence: []string{"e1", "e2", "e3", "e4"}}))
	}
	at := time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)
	sha := strings.Repeat("ab", 32)
	for _, e := range []string{"e1", "e2", "e3"} {
		do(t, "capture")(h.RecordCapture(ctx, domain.Worker(), domain.RecordCapture{CommandID: id + "-cap-" + e, Proposal: id,
			Evidence: e, At: at, FinalURL: "https://ppio.example/", Status: 200, ContentType: "text/html", Size: 42, SHA256: sha,
			QuoteFound: true, QuoteChecked: true}))
	}
	pv, _, err := h.PreviewEdition(ctx, demo.RankingSlug, []string{id})
	if err != nil {
		t.Fatal(err)
	}
	do(t, "publish")(h.Publish(ctx, publisher, domain.PublishEdition{CommandID: id + "-publish", Ranking: demo.RankingSlug,
		Proposals: []string{id}, PreviewHash: pv.Hash}))
	catchUp(t, env, ps)
	refs, err := ps.PublishedCaptures(ctx)
	if want := []projections.SourceRef{{id, "e1"}, {id, "e2"}, {id, "e3"}}; err != nil || !reflect.DeepEqual(refs, want) {
		t.Fatalf("PublishedCaptures = %v, %v; want %v", refs, err, want)
	}
	if got, err := ps.SourcesToReverify(ctx, demo.RankingSlug); err != nil || len(got) != 0 {
		t.Fatalf("before any drift: %v, %v", got, err)
	}
	published, err := ps.EditionMark(ctx, demo.RankingSlug)
	if err != nil || published.EvidenceSeq != 0 {
		t.Fatalf("mark after publishing evidence captured before: %+v, %v", published, err)
	}
	// A result for evidence the ranking does not publish leaves its mark.
	do(t, "capture e4")(h.RecordCapture(ctx, domain.Worker(), domain.RecordCapture{CommandID: id + "-cap-e4", Proposal: id,
		Evidence: "e4", At: at, FinalURL: "https://ppio.example/", Status: 200, ContentType: "text/html", Size: 42, SHA256: sha}))
	catchUp(t, env, ps)
	if m, _ := ps.EditionMark(ctx, demo.RankingSlug); m != published {
		t.Errorf("mark after capturing unpublished evidence: %+v, want %+v", m, published)
	}

	later := at.AddDate(0, 1, 0)
	newSHA := strings.Repeat("cd", 32)
	do(t, "changed")(h.RecordRecheck(ctx, domain.Worker(), domain.RecordRecheck{CommandID: id + "-re1", Proposal: id, Evidence: "e1",
		Tick: "7@x", At: later, FinalURL: "https://ppio.example/pricing", Status: 200, ContentType: "text/html", Size: 50,
		SHA256: newSHA, QuoteChecked: true}))
	do(t, "dead")(h.RecordRecheck(ctx, domain.Worker(), domain.RecordRecheck{CommandID: id + "-re3", Proposal: id, Evidence: "e3",
		Tick: "7@x", At: later, Dead: domain.DeadGone, Status: 410}))
	catchUp(t, env, ps)

	// A drift of published evidence changes the mark, so the cached
	// public pages show it.
	m, err := ps.EditionMark(ctx, demo.RankingSlug)
	if err != nil || m.EvidenceSeq <= published.Seq || m.Seq != published.Seq || m.Key() == published.Key() {
		t.Errorf("mark after drift: %+v, %v (after publishing: %+v)", m, err, published)
	}
	if all, err := ps.EditionMark(ctx, ""); err != nil || all.EvidenceSeq != m.EvidenceSeq {
		t.Errorf("mark of all rankings after drift: %+v, %v; want evidence seq %d", all, err, m.EvidenceSeq)
	}

	got, err := ps.SourcesToReverify(ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	want := []projections.DriftView{
		{State: domain.DriftChanged, SHA256: newSHA, Status: 200, QuoteChecked: true, At: "2026-04-02T08:00:00Z"},
		{State: domain.DriftDead, SHA256: sha, Status: 410, Reason: "gone", At: "2026-04-02T08:00:00Z"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d sources to re-verify, want %d: %+v", len(got), len(want), got)
	}
	for i, s := range got {
		if s.Evidence.Drift != want[i] || s.Entry != "ppio" || s.Target != "score:"+demo.CritOnboarding || s.EntryName == "" {
			t.Errorf("source %d: %s/%s %s, drift %+v; want %+v", i, s.Entry, s.Evidence.ID, s.Target, s.Evidence.Drift, want[i])
		}
	}
	if other, err := ps.SourcesToReverify(ctx, "another-ranking"); err != nil || len(other) != 0 {
		t.Errorf("another ranking: %v, %v", other, err)
	}
	page, err := ps.Audit(ctx, projections.AuditFilter{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r := page.Rows[0]; r.Type != events.TypeEvidenceSourceDead || r.After != "gone" || r.AuthVia != events.ViaWorker {
		t.Errorf("audit row of the death: %+v", r)
	}
	if r := page.Rows[1]; r.Type != events.TypeEvidenceSourceChanged || r.After != newSHA {
		t.Errorf("audit row of the change: %+v", r)
	}
	if _, err := projections.Verify(ctx, env.Store, ps.DB()); err != nil {
		t.Errorf("verify: %v", err)
	}
}
