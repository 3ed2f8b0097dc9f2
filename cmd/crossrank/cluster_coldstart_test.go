package main

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
)

// TestClusterColdStart is the start after a full outage (issue 45 item 1):
// a replica and its 3-node JetStream cluster (in the test process) all went
// down; the replica comes back first, before any node. It listens at once,
// /healthz answers 200 and /readyz 503 saying what it waits for, while the
// nodes come back one at a time (the first alone has no quorum: the
// streams and buckets have no leader). It never exits, becomes ready once
// the cluster answers, and takes a write.
func TestClusterColdStart(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	nodes := startNATSCluster(t, 3)
	var all []string
	for _, n := range nodes {
		all = append(all, n.url)
	}
	urls := strings.Join(all, ",")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	nc, err := jetstream.Connect(urls, "coldstart-test")
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the cluster to create the stream at 3 replicas", 60*time.Second, func() bool {
		_, err := jetstream.Open(ctx, nc, jetstream.Config{Replicas: 3})
		if err != nil && !errors.Is(err, events.ErrUnavailable) {
			t.Logf("open stream: %v", err)
		}
		return err == nil
	})
	nc.Close()

	// The replica ran once: its streams and buckets exist at 3 replicas.
	data := t.TempDir()
	tokens := demoTokens(t, "--data", data, "--nats-url", urls, "--replicas", "3")
	r := startServe(t, "replica", data, "--nats-url", urls, "--replicas", "3", "--no-demo")
	r.stop()
	for _, n := range nodes {
		n.stop()
	}

	// The full outage ends: the replica starts first.
	start := time.Now()
	r.launch()
	select {
	case r.url = <-r.log.listening:
	case <-r.exited:
		t.Fatalf("the replica exited with no NATS node up: %v\n%s", r.cmd.ProcessState, r.log.tail(20))
	case <-time.After(20 * time.Second):
		t.Fatalf("the replica did not listen within 20s with no NATS node up:\n%s", r.log.tail(20))
	}
	seen := map[string]bool{}
	probe := func(phase string, d time.Duration) {
		t.Helper()
		for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
			select {
			case <-r.exited:
				t.Fatalf("the replica exited %s: %v\n%s", phase, r.cmd.ProcessState, r.log.tail(20))
			default:
			}
			if status, _, err := apiGet(ctx, r.url+"/healthz", ""); err != nil || status != http.StatusOK {
				t.Errorf("/healthz %s: %d %v", phase, status, err)
			}
			status, body := r.readyz()
			if status == http.StatusOK {
				return
			}
			if status != http.StatusServiceUnavailable || !strings.Contains(body, "waiting for NATS: ") && !strings.Contains(body, "starting") {
				t.Errorf("/readyz %s: %d %q; want 503 naming what it waits for", phase, status, body)
			}
			if !seen[body] {
				seen[body] = true
				t.Logf("%s after %s: /readyz %d %q", phase, time.Since(start).Round(time.Millisecond), status, body)
			}
		}
	}
	probe("with no NATS node up", 3*time.Second)
	nodes[0].start()
	probe("with one node of three up", 4*time.Second)
	nodes[1].start()
	nodes[2].start()
	t.Logf("all three nodes up %s after the replica started", time.Since(start).Round(time.Millisecond))
	ready := r.waitReady(2 * time.Minute)
	t.Logf("replica ready %s after the last node started, %s after it started", ready.Round(time.Millisecond),
		time.Since(start).Round(time.Millisecond))
	found := false
	for body := range seen {
		found = found || strings.Contains(body, "waiting for NATS: a connection to nats://")
	}
	if !found {
		t.Errorf("/readyz never said it waited for the connection to NATS: %v", seen)
	}
	if n := strings.Count(r.log.tail(1000), "waiting for NATS"); n == 0 {
		t.Errorf("the replica logged no line while it waited")
	} else {
		t.Logf("%d log lines while waiting", n)
	}
	if o := probeWrite(ctx, r.url, tokens["editor"]); !o.acked() {
		t.Errorf("a write after the cold start: %d %+v %v", o.Status, o.Problem, o.Err)
	}
	r.stop()
}
