package events_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

// TestCapturePayloadsGolden pins the stored bodies of the capture events:
// their field names are what the audit chain hashes and what other NATS
// clients read, so they never change within a version.
func TestCapturePayloadsGolden(t *testing.T) {
	var got []byte
	for _, typ := range []string{events.TypeEvidenceCaptured, events.TypeEvidenceCaptureFailed} {
		e, err := events.New("id-1", time.Unix(0, 0), "system", "p-1", samples[typ])
		if err != nil {
			t.Fatal(err)
		}
		got = append(append(append(got, typ+" "...), e.Raw...), '\n')
	}
	golden := filepath.Join("testdata", "capture_v1.golden")
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
		t.Errorf("capture payloads changed:\n got %s\nwant %s", got, want)
	}
}

// TestCaptureFailedAttemptsIsOptional: the count of attempts came after v1.
// A failure stored before it decodes with Attempts 0 (not counted) and
// encodes byte for byte as stored; one that carries it round-trips.
func TestCaptureFailedAttemptsIsOptional(t *testing.T) {
	old := `{"evidence_id":"e1","url":"http://169.254.169.254/","reason":"forbidden_address","at":"2026-03-01T08:00:00Z"}`
	counted := `{"evidence_id":"e2","url":"https://example.com/","reason":"timeout","at":"2026-03-01T08:00:00Z","attempts":12}`
	for body, want := range map[string]int{old: 0, counted: 12} {
		_, _, data, err := events.DecodeData(events.TypeEvidenceCaptureFailed, []byte(body))
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		d, ok := data.(*events.EvidenceCaptureFailed)
		if !ok || d.Attempts != want {
			t.Fatalf("%s decoded as %#v, want attempts %d", body, data, want)
		}
		e, err := events.New("id-1", time.Unix(0, 0).UTC(), "system", "p-1", d)
		if err != nil {
			t.Fatal(err)
		}
		if string(e.Raw) != body {
			t.Errorf("re-encoded\n got %s\nwant %s", e.Raw, body)
		}
	}
}
