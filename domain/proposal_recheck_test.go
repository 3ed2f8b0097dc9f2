package domain_test

import (
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

const newHash = "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752"

// changedTo is the re-check command that found e1's page at body hash sha.
func changedTo(tick, sha string, quote bool) domain.RecordRecheck {
	return domain.RecordRecheck{Proposal: "p1", Evidence: "e1", Tick: tick, At: fetchedAt, FinalURL: "https://example.com/e1",
		Status: 200, ContentType: "text/html", Size: 600, SHA256: sha, QuoteFound: quote, QuoteChecked: true}
}

func deadAt(tick, reason string, status int) domain.RecordRecheck {
	return domain.RecordRecheck{Proposal: "p1", Evidence: "e1", Tick: tick, At: fetchedAt, Dead: reason, Status: status}
}

func changedEvent(tick, sha string, quote bool) *events.EvidenceSourceChanged {
	return &events.EvidenceSourceChanged{EvidenceID: "e1", URL: "https://example.com/e1", FinalURL: "https://example.com/e1",
		Status: 200, ContentType: "text/html", Size: 600, SHA256: sha, CheckedAt: "2026-03-02T09:30:15Z",
		QuoteFound: quote, QuoteChecked: true, Tick: tick}
}

func deadEvent(tick, reason string, status int) *events.EvidenceSourceDead {
	return &events.EvidenceSourceDead{EvidenceID: "e1", URL: "https://example.com/e1", Reason: reason, Status: status,
		CheckedAt: "2026-03-02T09:30:15Z", Tick: tick}
}

func recheck(a domain.Actor, c domain.RecordRecheck) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) { return domain.DecideRecordRecheck(w.prop("p1"), a, c) }
}

func TestDecideRecordRecheck(t *testing.T) {
	worker := domain.Worker()
	sys := func(data any) given { return given{"system", domain.ProposalID("p1"), data} }
	captured := cat(p1Draft(), []given{sys(capturedEvent())})
	runDecide(t, []decideTest{
		{name: "the quote is gone from a new version", given: captured, when: recheck(worker, changedTo("t1", newHash, false)),
			want: changes(on("p1", changedEvent("t1", newHash, false)))},
		{name: "a new version that still holds the quote is recorded too", given: captured,
			when: recheck(worker, changedTo("t1", newHash, true)), want: changes(on("p1", changedEvent("t1", newHash, true)))},
		{name: "the captured body again: nothing", given: captured, when: recheck(worker, changedTo("t1", bodyHash, true))},
		{name: "the version last recorded again: nothing", given: cat(captured, []given{sys(changedEvent("t1", newHash, false))}),
			when: recheck(worker, changedTo("t2", newHash, false))},
		{name: "back to the captured body after a change", given: cat(captured, []given{sys(changedEvent("t1", newHash, false))}),
			when: recheck(worker, changedTo("t2", bodyHash, true)), want: changes(on("p1", changedEvent("t2", bodyHash, true)))},
		{name: "gone", given: captured, when: recheck(worker, deadAt("t1", domain.DeadNotFound, 404)),
			want: changes(on("p1", deadEvent("t1", "not_found", 404)))},
		{name: "gone again: nothing", given: cat(captured, []given{sys(deadEvent("t1", "gone", 410))}),
			when: recheck(worker, deadAt("t2", domain.DeadUnreachable, 0))},
		{name: "answering again after gone, even as captured", given: cat(captured, []given{sys(deadEvent("t1", "gone", 410))}),
			when: recheck(worker, changedTo("t2", bodyHash, true)), want: changes(on("p1", changedEvent("t2", bodyHash, true)))},
		{name: "a second result for the same tick", given: cat(captured, []given{sys(deadEvent("t1", "gone", 410))}),
			when: recheck(worker, changedTo("t1", newHash, true)), err: domain.ErrRecheckRecorded},
		{name: "a user cannot record a re-check", given: captured, when: recheck(actor("pat"), changedTo("t1", newHash, true)),
			err: domain.ErrForbidden},
		{name: "never captured", given: p1Draft(), when: recheck(worker, changedTo("t1", newHash, true)), err: domain.ErrInvalid},
		{name: "capture failed", given: cat(p1Draft(), []given{sys(failedEvent("timeout"))}),
			when: recheck(worker, deadAt("t1", domain.DeadGone, 410)), err: domain.ErrInvalid},
		{name: "no tick", given: captured, when: recheck(worker, changedTo("", newHash, true)), err: domain.ErrInvalid},
		{name: "unknown reason", given: captured, when: recheck(worker, deadAt("t1", "status", 500)), err: domain.ErrInvalid},
		{name: "not a SHA-256", given: captured, when: recheck(worker, changedTo("t1", "abc", true)), err: domain.ErrInvalid},
		{name: "unknown evidence", given: captured,
			when: recheck(worker, domain.RecordRecheck{Proposal: "p1", Evidence: "e9", Tick: "t1", Dead: domain.DeadGone}),
			err:  domain.ErrUnknownEvidence},
	})
}

// TestDriftState: Evolve keeps the latest re-check per item; a death keeps
// the version last seen, which a later change replaces.
func TestDriftState(t *testing.T) {
	sys := func(data any) given { return given{"system", domain.ProposalID("p1"), data} }
	steps := []struct {
		g        given
		want     domain.DriftState
		lastSeen string
	}{
		{sys(capturedEvent()), domain.DriftNone, bodyHash},
		{sys(changedEvent("t1", newHash, false)), domain.DriftChanged, newHash},
		{sys(deadEvent("t2", "gone", 410)), domain.DriftDead, newHash},
		{sys(changedEvent("t3", bodyHash, true)), domain.DriftChanged, bodyHash},
	}
	history := p1Draft()
	for _, s := range steps {
		history = append(history, s.g)
		e, _ := newWorld(t, history, nil).prop("p1").EvidenceByID("e1")
		if got := e.Drift(); got != s.want {
			t.Errorf("after %T: drift %q, want %q", s.g.data, got, s.want)
		}
		if got := e.LastSeenSHA256(); got != s.lastSeen {
			t.Errorf("after %T: last seen %s, want %s", s.g.data, got, s.lastSeen)
		}
	}
}
