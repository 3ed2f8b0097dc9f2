package events_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

// TestPreviewPayloadsGolden pins the stored bodies of the preview events:
// the audit chain hashes them and other NATS clients read them. The
// created event holds the token's hash, never the token.
func TestPreviewPayloadsGolden(t *testing.T) {
	var got []byte
	for _, typ := range []string{events.TypePreviewCreated, events.TypePreviewRevoked, events.TypePreviewOpened} {
		e, err := events.New("id-1", time.Unix(0, 0), "system", "pv-1", samples[typ])
		if err != nil {
			t.Fatal(err)
		}
		got = append(append(append(got, typ+" "...), e.Raw...), '\n')
	}
	golden := filepath.Join("testdata", "preview_v1.golden")
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
		t.Errorf("preview payloads changed:\n got %s\nwant %s", got, want)
	}
}
