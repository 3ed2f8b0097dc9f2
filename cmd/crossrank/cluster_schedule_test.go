package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
)

// TestClusterScheduledEditionFiresOnce runs two `crossrank serve` replicas
// on a three-node NATS cluster, both running the scheduler. An edition is
// scheduled through replica A, which is killed with SIGKILL before the
// moment; replica B fires it. A restarts after the moment: still exactly
// one edition, by the scheduling publisher.
func TestClusterScheduledEditionFiresOnce(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	nodes := startNATSCluster(t, 3)
	urlA, urlB := nodes[0].url, nodes[1].url
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	nc, err := jetstream.Connect(strings.Join([]string{nodes[0].url, nodes[1].url, nodes[2].url}, ","), "cluster-schedule-test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	waitUntil(t, "the cluster to create the stream at 3 replicas", 60*time.Second, func() bool {
		_, err := jetstream.Open(ctx, nc, jetstream.Config{Replicas: 3})
		if err != nil && !errors.Is(err, events.ErrUnavailable) {
			t.Logf("open stream: %v", err)
		}
		return err == nil
	})
	dataA, dataB := t.TempDir(), t.TempDir()
	store := []string{"--data", dataA, "--nats-url", urlA, "--replicas", "3"}
	demoTokens(t, store...)
	pub := createToken(t, "publisher", store...)
	a := startServe(t, "replica A", dataA, "--nats-url", urlA, "--replicas", "3", "--no-demo", "--no-capture")
	b := startServe(t, "replica B", dataB, "--nats-url", urlB, "--replicas", "3", "--no-demo", "--no-capture")

	status, body, err := apiGet(ctx, a.url+"/api/v1/proposals?status=cross_validated&ranking="+demo.RankingSlug, pub)
	var list struct {
		Proposals []struct {
			ID string `json:"id"`
		} `json:"proposals"`
	}
	if err != nil || status != http.StatusOK || json.Unmarshal(body, &list) != nil || len(list.Proposals) == 0 {
		t.Fatalf("cross-validated proposals: %d %v %s", status, err, body)
	}
	var ids []string
	for _, p := range list.Proposals {
		ids = append(ids, p.ID)
	}
	base := a.url + "/api/v1/rankings/" + demo.RankingSlug + "/editions"
	var pv struct {
		PreviewHash string `json:"preview_hash"`
	}
	if status, body := apiPostJSON(t, base+"/preview", pub, map[string]any{"proposals": ids}); status != http.StatusOK ||
		json.Unmarshal(body, &pv) != nil {
		t.Fatalf("preview: %d %s", status, body)
	}
	at := time.Now().Add(4 * time.Second).Truncate(time.Second).Add(time.Second)
	status, body = apiPostJSON(t, base+"/schedule", pub, map[string]any{"proposals": ids, "preview_hash": pv.PreviewHash,
		"at": at.Format(time.RFC3339)})
	var s struct {
		ID string `json:"id"`
	}
	if status != http.StatusCreated || json.Unmarshal(body, &s) != nil {
		t.Fatalf("schedule: %d %s", status, body)
	}
	time.Sleep(500 * time.Millisecond)
	a.kill()
	if time.Now().After(at) {
		t.Fatalf("killed A after the moment %v", at)
	}

	count := func() (n int, ev events.Event) {
		for _, e := range readStream(t, nodes[2].url, 3) {
			if d, ok := e.Data.(*events.EditionPublished); ok && d.Schedule == s.ID {
				n, ev = n+1, e
			}
		}
		return n, ev
	}
	waitUntil(t, "replica B to fire the schedule", 45*time.Second, func() bool { n, _ := count(); return n > 0 })
	_, first := count()
	t.Logf("published %s after the moment, with replica A down", first.Time.Sub(at).Round(time.Millisecond))
	a.restart()
	time.Sleep(3 * time.Second) // A's consumers catch up: nothing fires again
	n, ev := count()
	if n != 1 {
		t.Fatalf("%d editions carry the schedule, want exactly 1", n)
	}
	if ev.Actor != "publisher" || ev.Time.Before(at) {
		t.Errorf("edition by %q at %v; want by publisher, not before %v", ev.Actor, ev.Time, at)
	}
	a.stopAtEnd()
	b.stopAtEnd()
}
