package domain_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

const bodyHash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

var fetchedAt = time.Date(2026, 3, 2, 9, 30, 15, 500, time.UTC)

// captured is the command for e1's page, found with the quote on it.
func captured() domain.RecordCapture {
	return domain.RecordCapture{Proposal: "p1", Evidence: "e1", At: fetchedAt, FinalURL: "https://example.com/e1?page=1",
		Status: 200, ContentType: "text/html; charset=utf-8", Size: 512, SHA256: bodyHash, QuoteFound: true, QuoteChecked: true}
}

func failed(reason string) domain.RecordCapture {
	return domain.RecordCapture{Proposal: "p1", Evidence: "e1", At: fetchedAt, Failure: reason}
}

func recordCapture(a domain.Actor, c domain.RecordCapture) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) { return domain.DecideRecordCapture(w.prop("p1"), a, c) }
}

func capturedEvent() *events.EvidenceCaptured {
	return &events.EvidenceCaptured{EvidenceID: "e1", URL: "https://example.com/e1", FinalURL: "https://example.com/e1?page=1",
		Status: 200, ContentType: "text/html; charset=utf-8", Size: 512, SHA256: bodyHash,
		FetchedAt: "2026-03-02T09:30:15Z", QuoteFound: true, QuoteChecked: true}
}

func failedEvent(reason string) *events.EvidenceCaptureFailed {
	return &events.EvidenceCaptureFailed{EvidenceID: "e1", URL: "https://example.com/e1", Reason: reason, At: "2026-03-02T09:30:15Z"}
}

func TestDecideRecordCapture(t *testing.T) {
	worker := domain.Worker()
	with := func(c domain.RecordCapture, f func(*domain.RecordCapture)) domain.RecordCapture { f(&c); return c }
	named := given{"alice", domain.ProposalID("p1"), &events.EvidenceAdded{EvidenceID: "e3", Revision: 1,
		Claim: events.Text{En: "from the article"}, SourceName: "GPU 云租赁市场概览", Excerpt: "四种交付路径", ObservedOn: "2026-02-01"}}
	runDecide(t, []decideTest{
		{name: "captured: the hash enters the proposal's events", given: p1Draft(), when: recordCapture(worker, captured()),
			want: changes(on("p1", capturedEvent()))},
		{name: "failed, with its reason", given: p1Draft(), when: recordCapture(worker, failed(domain.CaptureForbiddenAddress)),
			want: changes(on("p1", failedEvent("forbidden_address")))},
		{name: "failed after the worker's retries, with how many it made", given: p1Draft(),
			when: recordCapture(worker, with(failed(domain.CaptureTimeout), func(c *domain.RecordCapture) { c.Attempts = 12 })),
			want: changes(on("p1", &events.EvidenceCaptureFailed{EvidenceID: "e1", URL: "https://example.com/e1", Reason: "timeout",
				At: "2026-03-02T09:30:15Z", Attempts: 12}))},
		{name: "a negative count of attempts", given: p1Draft(),
			when: recordCapture(worker, with(failed(domain.CaptureTimeout), func(c *domain.RecordCapture) { c.Attempts = -1 })),
			err:  domain.ErrInvalid},
		{name: "in any status: a published proposal's sources are captured too",
			given: cat(p1Validated(), []given{closedBy("p1", "pat", &events.ProposalPublished{Edition: 2, Revision: 1})}),
			when:  recordCapture(worker, captured()), want: changes(on("p1", capturedEvent()))},
		{name: "a second result for the same item", given: cat(p1Draft(), []given{{"system", domain.ProposalID("p1"), capturedEvent()}}),
			when: recordCapture(worker, captured()), err: domain.ErrCaptureRecorded},
		{name: "a result after a failure", given: cat(p1Draft(), []given{{"system", domain.ProposalID("p1"), failedEvent("timeout")}}),
			when: recordCapture(worker, captured()), err: domain.ErrCaptureRecorded},
		{name: "a user cannot record a capture", given: p1Draft(), when: recordCapture(actor("alice"), captured()),
			err: domain.ErrCaptureBySystem},
		{name: "a publisher cannot either", given: p1Draft(), when: recordCapture(actor("pat"), captured()),
			err: domain.ErrForbidden},
		{name: "unknown evidence id", given: p1Draft(),
			when: recordCapture(worker, with(captured(), func(c *domain.RecordCapture) { c.Evidence = "e9" })), err: domain.ErrUnknownEvidence},
		{name: "removed evidence", given: cat(p1Draft(), []given{{"alice", domain.ProposalID("p1"), &events.EvidenceRemoved{EvidenceID: "e2", Revision: 1}}}),
			when: recordCapture(worker, with(captured(), func(c *domain.RecordCapture) { c.Evidence = "e2" })), err: domain.ErrUnknownEvidence},
		{name: "evidence without a URL", given: cat(p1Draft(), []given{named}),
			when: recordCapture(worker, with(captured(), func(c *domain.RecordCapture) { c.Evidence = "e3" })), err: domain.ErrInvalid},
		{name: "unknown proposal", given: defined(), when: recordCapture(worker, captured()), err: domain.ErrProposalMissing},
		{name: "unknown reason", given: p1Draft(), when: recordCapture(worker, failed("gremlins")), err: domain.ErrInvalid},
		{name: "not a SHA-256", given: p1Draft(),
			when: recordCapture(worker, with(captured(), func(c *domain.RecordCapture) { c.SHA256 = "ABC" })), err: domain.ErrInvalid},
		{name: "final URL not http(s)", given: p1Draft(),
			when: recordCapture(worker, with(captured(), func(c *domain.RecordCapture) { c.FinalURL = "file:///etc/passwd" })), err: domain.ErrInvalid},
		{name: "not an HTTP status", given: p1Draft(),
			when: recordCapture(worker, with(captured(), func(c *domain.RecordCapture) { c.Status = 0 })), err: domain.ErrInvalid},
	})
}

// TestCaptureState: Evolve records each item's capture, and the proposal
// lists the items whose quote the capture does not hold.
func TestCaptureState(t *testing.T) {
	notFound := capturedEvent()
	notFound.EvidenceID, notFound.QuoteFound = "e2", false
	pdf := &events.EvidenceCaptured{EvidenceID: "e4", URL: "https://example.com/e4", FinalURL: "https://example.com/e4",
		Status: 200, ContentType: "application/pdf", Size: 9, SHA256: bodyHash, FetchedAt: "2026-03-02T09:30:15Z"}
	w := newWorld(t, p1Draft(), []given{
		evidence("p1", "alice", "e3", 1),
		evidence("p1", "alice", "e4", 1),
		{"system", domain.ProposalID("p1"), capturedEvent()},
		{"system", domain.ProposalID("p1"), notFound},
		{"system", domain.ProposalID("p1"), failedEvent("timeout")}, // a second result for e1 (another writer's): the first stands
		{"system", domain.ProposalID("p1"), pdf},
	})
	p := w.prop("p1")
	want := map[string]domain.CaptureState{"e1": domain.CaptureDone, "e2": domain.CaptureDone, "e3": domain.CaptureNone, "e4": domain.CaptureDone}
	for id, st := range want {
		e, _ := p.EvidenceByID(id)
		if e.Capture() != st {
			t.Errorf("%s: capture %q, want %q", id, e.Capture(), st)
		}
	}
	if e, _ := p.EvidenceByID("e3"); !e.NeedsCapture() {
		t.Errorf("e3 has a URL and no result: NeedsCapture = false")
	}
	if e, _ := p.EvidenceByID("e2"); e.NeedsCapture() || e.Captured.SHA256 != bodyHash {
		t.Errorf("e2: NeedsCapture %v, capture %+v", e.NeedsCapture(), e.Captured)
	}
	// A PDF's quote was not checked: not listed as not found.
	if got, want := p.QuoteNotFound(), []string{"e2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("QuoteNotFound = %v, want %v", got, want)
	}
}
