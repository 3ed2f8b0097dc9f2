package events_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

// TestMailPayloadsGolden pins the stored bodies of the mail address facts,
// and that they hold no address.
func TestMailPayloadsGolden(t *testing.T) {
	var got []byte
	for _, typ := range []string{events.TypeMailAddressConfirmed, events.TypeMailAddressErased} {
		e, err := events.New("id-1", time.Unix(0, 0), "system", "rita", samples[typ])
		if err != nil {
			t.Fatal(err)
		}
		got = append(append(append(got, typ+" "...), e.Raw...), '\n')
	}
	golden := filepath.Join("testdata", "mail_v1.golden")
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
		t.Errorf("mail payloads changed:\n got %s\nwant %s", got, want)
	}
}
