package events_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

// TestVendorPayloadsGolden pins the stored bodies of the vendor scope and
// the statement events: the audit chain hashes them and other NATS clients
// read them, so their field names never change within a version.
func TestVendorPayloadsGolden(t *testing.T) {
	var got []byte
	for _, typ := range []string{events.TypeVendorEntriesSet, events.TypeReplyWritten, events.TypeReplyHidden} {
		e, err := events.New("id-1", time.Unix(0, 0), "acme", "rl-1", samples[typ])
		if err != nil {
			t.Fatal(err)
		}
		got = append(append(append(got, typ+" "...), e.Raw...), '\n')
	}
	golden := filepath.Join("testdata", "vendor_v1.golden")
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
		t.Errorf("vendor payloads changed:\n got %s\nwant %s", got, want)
	}
}
