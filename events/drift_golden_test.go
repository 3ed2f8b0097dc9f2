package events_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

// TestDriftPayloadsGolden pins the stored bodies of the re-check events,
// as TestCapturePayloadsGolden does the capture's.
func TestDriftPayloadsGolden(t *testing.T) {
	var got []byte
	for _, typ := range []string{events.TypeEvidenceSourceChanged, events.TypeEvidenceSourceDead} {
		e, err := events.New("id-1", time.Unix(0, 0), "system", "p-1", samples[typ])
		if err != nil {
			t.Fatal(err)
		}
		got = append(append(append(got, typ+" "...), e.Raw...), '\n')
	}
	golden := filepath.Join("testdata", "drift_v1.golden")
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
		t.Errorf("re-check payloads changed:\n got %s\nwant %s", got, want)
	}
}
