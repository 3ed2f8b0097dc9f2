package site

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
)

// TestWarmingHoldsReadiness: a site told that KeepWarm will run reports
// Warming until KeepWarm's first pass has built the first pages, and then
// the first reader finds them built; a site nobody warms never reports it
// (issue 42 item 6: a reader a second after a restart waited 7.7 s while
// /readyz said ready).
func TestWarmingHoldsReadiness(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 64<<20)
	if e.site.Warming() {
		t.Fatal("Warming before ExpectWarm")
	}
	e.site.ExpectWarm()
	if !e.site.Warming() {
		t.Fatal("not Warming after ExpectWarm, before KeepWarm ran")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	go e.site.KeepWarm(ctx)
	for e.site.Warming() {
		if ctx.Err() != nil {
			t.Fatal("still Warming after a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
	before := e.site.cache.stats()
	if res, _ := e.get("/r/"+demo.RankingSlug, "Accept-Language", "en", "Accept-Encoding", "gzip"); res.StatusCode != http.StatusOK {
		t.Fatalf("first page: %d", res.StatusCode)
	}
	if after := e.site.cache.stats(); after.Misses != before.Misses {
		t.Errorf("the first reader once Warming ended built the page (%d misses), want it warm", after.Misses-before.Misses)
	}
}
