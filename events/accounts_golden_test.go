package events_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

// TestAccountPayloadsGolden pins the stored bodies of the invitation and reset events:
// their field names are what the audit chain hashes and what other NATS
// clients read, so they never change within a version.
func TestAccountPayloadsGolden(t *testing.T) {
	var got []byte
	for _, typ := range []string{events.TypeUserInvited, events.TypePasswordReset, events.TypeInvitationAccepted, events.TypeInvitationRevoked} {
		e, err := events.New("id-1", time.Unix(0, 0), "system", "rita", samples[typ])
		if err != nil {
			t.Fatal(err)
		}
		got = append(append(append(got, typ+" "...), e.Raw...), '\n')
	}
	golden := filepath.Join("testdata", "accounts_v1.golden")
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
		t.Errorf("account payloads changed:\n got %s\nwant %s", got, want)
	}
}
