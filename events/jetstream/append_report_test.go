package jetstream_test

import (
	"testing"

	"github.com/crossrank/crossrank/events"
)

// TestAppendReportTellsRetries: the command handler skips reading back
// what it appended when AppendReport says the events were stored by this
// call, so a retry must never be reported as fresh.
func TestAppendReportTellsRetries(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := testContext(t)
	one := vote(t, "p-report", 1)
	batch := []events.Event{vote(t, "p-report", 2), vote(t, "p-report", 3)}
	for _, step := range []struct {
		name      string
		expect    uint64
		evs       []events.Event
		wantSeq   uint64
		wantRetry bool
	}{
		{"fresh event", 0, []events.Event{one}, 1, false},
		{"the same event again (duplicate ack)", 0, []events.Event{one}, 1, true},
		{"fresh batch", 1, batch, 3, false},
		{"the same batch again (reloaded after the refusal)", 1, batch, 3, true},
	} {
		seq, retry, err := s.AppendReport(ctx, expect("p-report", step.expect), step.evs...)
		if err != nil || seq != step.wantSeq || retry != step.wantRetry {
			t.Errorf("%s: AppendReport = %d, %v, %v; want %d, %v", step.name, seq, retry, err, step.wantSeq, step.wantRetry)
		}
	}
}
