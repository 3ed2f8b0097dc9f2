package events_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

// TestNudgePayloadsGolden pins the stored bodies of a request with a due
// date and of a nudge: the audit chain hashes them and other NATS clients
// read them, so they never change within a version.
func TestNudgePayloadsGolden(t *testing.T) {
	var got []byte
	for _, typ := range []string{events.TypeReviewersRequested, events.TypeReviewNudged,
		events.TypeChatWebhookSet, events.TypeChatPosted, events.TypeChatFailed} {
		e, err := events.New("id-1", time.Unix(0, 0), "system", "p-1", samples[typ])
		if err != nil {
			t.Fatal(err)
		}
		got = append(append(append(got, typ+" "...), e.Raw...), '\n')
	}
	golden := filepath.Join("testdata", "nudge_v2.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("nudge payloads changed:\n got %s\nwant %s", got, want)
	}
}

// TestUpcastReviewersRequestedV1: a request stored before due dates decodes
// as the current type with no due date, its stored type and body (which the
// audit chain hashes) unchanged.
func TestUpcastReviewersRequestedV1(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "v1", "reviewers_requested.json"))
	if err != nil {
		t.Fatal(err)
	}
	const stored = "crossrank.proposal.reviewers_requested.v1"
	e, err := events.Decode("crossrank.proposal.p-1.reviewers_requested", events.Header{
		events.HeaderSpecVersion: {"1.0"},
		events.HeaderID:          {"01890a5d-ac96-774b-bcce-b302099a8057"},
		events.HeaderSource:      {"/crossrank"},
		events.HeaderType:        {stored},
		events.HeaderSubject:     {"p-1"},
		events.HeaderTime:        {"2025-11-03T08:00:00Z"},
		events.HeaderActor:       {"alice"},
		events.HeaderContentType: {"application/json"},
	}, body, 7)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if e.Type != events.TypeReviewersRequested || e.StoredType != stored || string(e.Raw) != string(body) {
		t.Errorf("type %q stored as %q, raw %s", e.Type, e.StoredType, e.Raw)
	}
	want := events.ReviewersRequested{Reviewers: []string{"rita", "ravi"}}
	if got, ok := e.Data.(*events.ReviewersRequested); !ok || !reflect.DeepEqual(*got, want) {
		t.Errorf("Data = %#v, want %+v", e.Data, want)
	}
}
