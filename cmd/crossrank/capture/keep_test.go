package capture_test

import (
	"context"
	"testing"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
)

// TestKeep archives a fetched page and checks its quote in one call: the
// record is stored under the body's digest and reads back whole, the
// quote check answers as QuoteFound does, and the same body again is
// not stored twice.
func TestKeep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, _ := openArchive(t, jstest.Start(t))
	s := serve(t, page("<p>价格应以<b>实时</b>库存为准</p>"))
	resp, err := fetch(t, &capture.Fetcher{Allow: loopback}, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	rec := capture.NewRecord(resp)
	kept, err := capture.Keep(ctx, a, resp, "应以实时库存为准")
	if err != nil || kept != (capture.Kept{Key: rec.Key(), Stored: true, Found: true, QuoteChecked: true}) {
		t.Fatalf("Keep = %+v, %v; want stored under %s, quote found", kept, err, rec.Key())
	}
	if got, err := a.Get(ctx, kept.Key); err != nil || string(got.Body) != string(resp.Body) || got.TargetURI != resp.FinalURL {
		t.Fatalf("Get(%s) = %v, %v; want the fetched page", kept.Key, got, err)
	}
	again, err := capture.Keep(ctx, a, resp, "应以实际库存为准")
	if err != nil || again != (capture.Kept{Key: rec.Key(), Stored: false, Found: false, QuoteChecked: true}) {
		t.Errorf("Keep again with other words = %+v, %v; want not stored, quote checked and not found", again, err)
	}
}
