package demo_test

import (
	"context"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
)

// editionOneHash is the demo's edition 1 snapshot hash. It was computed
// from the Go content the demo was written in before it became a ranking
// file; loading the file through the import path must publish the same
// ranking, byte for byte.
const editionOneHash = "51675818774405dd3f93e431cfada6316282abdae05392f387ec7e3becf0fecd"

func TestSeedSnapshotHash(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	env := jstest.Start(t)
	h := handler.New(env.Store, nil)
	if _, err := demo.Seed(ctx, h, demo.Options{Password: "pw", HashPassword: fakeHash, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	ed, err := h.Edition(ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("edition %d snapshot hash %s", ed.Number, ed.Last.SnapshotHash)
	// The published methodology is the file's: importing the held-back
	// proposals opened no methodology change.
	r, err := h.Ranking(ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	if d := domain.DiffMethodology(r.Methodology(), demo.File().Methodology, false); len(d) > 0 {
		t.Errorf("the published methodology differs from the file's: %+v", d)
	}
	if ed.Number != 1 || ed.Last.SnapshotHash != editionOneHash {
		t.Errorf("edition %d hash %s, want edition 1 hash %s", ed.Number, ed.Last.SnapshotHash, editionOneHash)
	}
}
