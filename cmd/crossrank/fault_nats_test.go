package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
)

// outageLength is how long NATS stays down.
const outageLength = 3 * time.Second

// TestFaultNATSOutage stops the NATS server under a `crossrank serve`
// child (--nats-url) while clients write, and starts it again on the same
// directory and port. During the outage writes are refused with 503 and a
// problem+json saying nothing was saved, the public pages keep serving
// from the read models, a proposal the desk has seen keeps answering from
// the handler's cache, and /readyz says not ready; afterwards writes
// succeed again and the read models catch up without restarting the app.
func TestFaultNATSOutage(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	ns := startNATS(t, jetstream.EmbeddedOptions{Dir: t.TempDir(), Listen: freeLoopbackAddr(t), Name: "outage"}) // started again on it
	data := t.TempDir()
	tokens := demoTokens(t, "--data", data, "--nats-url", ns.url)
	srv := startServe(t, "serve", data, "--nats-url", ns.url, "--no-demo")

	// The pages that must keep serving: whichever public reads answer now.
	var reads []string
	for _, path := range []string{"/", "/r/" + demo.RankingSlug, "/api/v1/rankings", "/api/v1/rankings/" + demo.RankingSlug} {
		if status, _, err := apiGet(context.Background(), srv.url+path, ""); err == nil && status == http.StatusOK {
			reads = append(reads, path)
		}
	}
	if len(reads) == 0 {
		t.Fatal("no public read answers 200 before the outage")
	}

	l := startAPILoad(tokens, 6, uint64(time.Now().UnixNano()), func(int, int) string { return srv.url })
	time.Sleep(1500 * time.Millisecond)
	proposal := ""
	for _, o := range l.snapshot() {
		if o.acked() && strings.HasPrefix(o.Kind, "open") {
			proposal = o.Proposal
			break
		}
	}
	if proposal == "" {
		t.Fatalf("no proposal opened before the outage: %s", opSummary(l.snapshot()))
	}

	ns.stop()
	down := time.Now()
	var (
		notReadyAfter time.Duration
		apiReads      = map[int]int{}
		probes        []*apiOp
	)
	ctx := context.Background()
	for time.Since(down) < outageLength {
		if notReadyAfter == 0 {
			if status, _ := srv.readyz(); status == http.StatusServiceUnavailable {
				notReadyAfter = time.Since(down)
			}
		}
		for _, path := range reads {
			if status, body, err := apiGet(ctx, srv.url+path, ""); err != nil || status != http.StatusOK {
				t.Errorf("GET %s during the outage: %d %v %.200s", path, status, err, body)
			}
		}
		status, body, err := apiGet(ctx, srv.url+"/api/v1/proposals/"+proposal, tokens["editor"])
		if err != nil {
			t.Errorf("GET /api/v1/proposals/%s during the outage: %v", proposal, err)
		}
		apiReads[status]++
		if status != http.StatusOK {
			t.Errorf("GET /api/v1/proposals/%s during the outage: %d %s; want 200 from what the desk last saw", proposal, status, body)
		}
		probes = append(probes, probeWrite(ctx, srv.url, tokens["editor"]))
		time.Sleep(100 * time.Millisecond)
	}
	if notReadyAfter == 0 {
		t.Errorf("/readyz stayed ready through the outage")
	}

	ns.start()
	up := time.Now()
	writesBack := waitUntil(t, "a write to succeed after NATS is back", 30*time.Second, func() bool {
		return probeWrite(ctx, srv.url, tokens["editor"]).acked()
	})
	srv.waitReady(30 * time.Second)
	readyBack := time.Since(up)
	time.Sleep(time.Second) // the load writes again
	l.stop()
	caughtUp := waitUntil(t, "the read models to catch up", 30*time.Second, func() bool {
		_, _, ok := srv.caughtUp()
		return ok
	})

	// Every write refused during the outage was refused the same way.
	ops := l.snapshot()
	var during, after []*apiOp
	for _, o := range ops {
		switch {
		case o.Start.After(down) && o.Start.Add(o.Took).Before(up):
			during = append(during, o)
		case o.Start.After(up):
			after = append(after, o)
		}
	}
	for _, o := range append(during, probes...) {
		if o.Start.Before(down.Add(500*time.Millisecond)) && o.acked() {
			continue // stored in the moment NATS went down
		}
		if o.Status != http.StatusServiceUnavailable || o.Problem.Type != "urn:crossrank:problem:unavailable" ||
			o.Problem.Detail == "" || o.Retry == "" {
			t.Errorf("%s during the outage: status %d, Retry-After %q, problem %+v, %s", o.Kind, o.Status, o.Retry, o.Problem, o.Err)
		}
	}
	if len(during)+len(probes) > 0 {
		o := probes[len(probes)-1]
		t.Logf("writes during the outage: %d load requests (%s) and %d probes, answered %d %q: %q (Retry-After %s)",
			len(during), opSummary(during), len(probes), o.Status, o.Problem.Title, o.Problem.Detail, o.Retry)
	}
	t.Logf("GET /api/v1/proposals/{id} during the outage answered %v (status: count); public reads %v answered 200 throughout", apiReads, reads)
	t.Logf("NATS down %s; /readyz not ready %s after it went down; after the restart: writes succeed in %s, ready in %s; read models caught up %s after the load stopped",
		up.Sub(down).Round(time.Millisecond), notReadyAfter.Round(time.Millisecond), writesBack.Round(time.Millisecond),
		readyBack.Round(time.Millisecond), caughtUp.Round(time.Millisecond))
	t.Logf("load: %d requests (%s); after the restart %s", len(ops), opSummary(ops), opSummary(after))

	rep := checkLedger(t, append(ops, probes...), readStream(t, ns.url, 1))
	t.Logf("stream: %s", rep)
	for _, w := range rep.Landed {
		t.Logf("stored though not acknowledged: %s", w)
	}
	srv.stop()
	if out, err := runCLIErr(t, "verify", "--data", data, "--nats-url", ns.url); err != nil {
		t.Errorf("crossrank verify after the outage: %v\n%s", err, out)
	}
}

// probeWrite opens a proposal as user and returns what came of it.
func probeWrite(ctx context.Context, base, token string) *apiOp {
	key := events.NewID(time.Now())
	o := &apiOp{Kind: "open", Key: key, User: "editor", Base: base, Path: "/api/v1/proposals", Proposal: key,
		Body: map[string]any{"ranking": demo.RankingSlug, "entry": demoPlatforms[0].Slug, "title": "Outage probe"}}
	postOp(ctx, o, token)
	return o
}

// waitUntil polls cond until it holds and returns how long that took; past
// limit it fails the test naming what it waited for.
func waitUntil(t *testing.T, what string, limit time.Duration, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > limit {
			t.Fatalf("waited %s for %s", limit, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return time.Since(start)
}
