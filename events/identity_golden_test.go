package events_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

// TestIdentityPayloadGolden pins the JSON of the OpenID Connect binding
// (crossrank.user.identity_bound.v1), which other clients read, so it
// never changes within a version.
func TestIdentityPayloadGolden(t *testing.T) {
	e, err := events.New("id-1", time.Unix(0, 0), "system", "rita", samples[events.TypeIdentityBound])
	if err != nil {
		t.Fatal(err)
	}
	got := append([]byte(events.TypeIdentityBound+" "), e.Raw...)
	got = append(got, '\n')
	golden := filepath.Join("testdata", "identity_v1.golden")
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
		t.Errorf("identity payload changed:\n got %s\nwant %s", got, want)
	}
	_, _, back, err := events.DecodeData(events.TypeIdentityBound, e.Raw)
	if err != nil {
		t.Fatal(err)
	}
	if b := back.(*events.IdentityBound); *b != *samples[events.TypeIdentityBound].(*events.IdentityBound) {
		t.Errorf("decoded %+v", b)
	}
}
