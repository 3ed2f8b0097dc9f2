package jetstream_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/storetest"
	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"
)

// startCluster starts n embedded nodes forming one JetStream cluster on
// loopback, and returns them with the client URLs of all nodes.
func startCluster(t *testing.T, n int) ([]*jetstream.Embedded, string) {
	t.Helper()
	routes := make([]string, n)
	for i := range routes {
		routes[i] = "nats://" + freeAddr(t)
	}
	nodes := make([]*jetstream.Embedded, n)
	urls := make([]string, n)
	for i := range nodes {
		nodes[i] = startServer(t, jetstream.EmbeddedOptions{
			Dir:    t.TempDir(),
			Listen: "127.0.0.1:0",
			Name:   fmt.Sprintf("node-%d", i+1),
			Cluster: &jetstream.ClusterOptions{
				Name:   "crossrank-test",
				Listen: strings.TrimPrefix(routes[i], "nats://"),
				Routes: routes,
			},
		})
		urls[i] = nodes[i].ClientURL()
	}
	return nodes, strings.Join(urls, ",")
}

// TestCluster runs on a 3-node cluster with an R3 stream: the store suite
// (where concurrent appends meet the clustered conflict, 10164), reads right
// after writes (answered by followers too), and the loss of the leader.
func TestCluster(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a 3-node cluster")
	}
	nodes, url := startCluster(t, 3)
	nc := connectURL(t, url)
	var s *jetstream.Store
	// The cluster elects its meta leader first; until then JetStream
	// requests go unanswered.
	waitFor(t, "the cluster to create the stream", 30*time.Second, func() bool {
		var err error
		s, err = jetstream.Open(testContext(t), nc, jetstream.Config{Replicas: 3})
		if err != nil && !errors.Is(err, events.ErrUnavailable) {
			t.Logf("Open: %v", err)
		}
		return err == nil
	})
	// The stream's own group elects its leader after that; until then
	// appends find no responder (seen under load).
	js, err := natsjs.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the stream to have a leader", 30*time.Second, func() bool {
		st, err := js.Stream(testContext(t), jetstream.StreamName)
		if err != nil {
			return false
		}
		info, err := st.Info(testContext(t))
		return err == nil && info.Cluster != nil && info.Cluster.Leader != ""
	})

	t.Run("Conformance", func(t *testing.T) {
		storetest.Run(t, func(*testing.T) events.Store { return s })
	})

	t.Run("LoadReadsYourWrites", func(t *testing.T) {
		ctx := testContext(t)
		var last uint64
		for i := range 200 {
			seq, err := s.Append(ctx, expect("p-ryw", last), vote(t, "p-ryw", i))
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Load(ctx, proposal("p-ryw"), last)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Sequence != seq {
				t.Fatalf("append %d: Load right after it returned %d events, want the one at %d", i, len(got), seq)
			}
			last = seq
		}
	})

	t.Run("LeaderLost", func(t *testing.T) {
		ctx := testContext(t)
		before, err := s.LastSequence(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		appendOne := func() error {
			ev := vote(t, "p-failover", len(want))
			if _, err := s.Append(ctx, nil, ev); err != nil {
				return err
			}
			want = append(want, ev.ID)
			return nil
		}
		for range 10 {
			if err := appendOne(); err != nil {
				t.Fatal(err)
			}
		}
		leader := streamLeader(t, nc)
		stopped := 0
		for _, n := range nodes {
			if n.Server().Name() == leader {
				n.Shutdown()
				stopped++
			}
		}
		if stopped != 1 {
			t.Fatalf("no node is named %q", leader)
		}
		downAt := time.Now()
		// Appends fail with ErrUnavailable until a new leader is elected.
		waitFor(t, "a new leader to accept appends", 30*time.Second, func() bool {
			err := appendOne()
			if err != nil && !errors.Is(err, events.ErrUnavailable) && !errors.Is(err, events.ErrConflict) {
				t.Fatalf("Append during failover: %v", err)
			}
			return err == nil
		})
		t.Logf("leader %s shut down; appends resumed after %s", leader, time.Since(downAt))
		for range 10 {
			if err := appendOne(); err != nil {
				t.Fatal(err)
			}
		}
		ids, _ := replayIDs(t, s, before+1)
		if !slices.Equal(ids, want) {
			t.Fatalf("after failover the stream holds %d events %v, want every acknowledged one (%d) %v", len(ids), ids, len(want), want)
		}
	})
}

// streamLeader names the server leading the CROSSRANK stream.
func streamLeader(t *testing.T, nc *nats.Conn) string {
	t.Helper()
	js, err := natsjs.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(testContext(t), jetstream.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	info := st.CachedInfo()
	if info.Cluster == nil || info.Cluster.Leader == "" {
		t.Fatal("stream has no leader")
	}
	return info.Cluster.Leader
}

// TestClusterKVReplicas: a key-value bucket (the sessions) follows the
// stream's rule on a cluster — scaled up to the replicas a process asks
// for, never down. On a cluster of its own, so the new RAFT groups do not
// slow the stream tests of TestCluster.
func TestClusterKVReplicas(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a 3-node cluster")
	}
	_, url := startCluster(t, 3)
	nc := connectURL(t, url)
	waitFor(t, "the cluster to take a bucket", 30*time.Second, func() bool {
		_, err := jetstream.OpenKV(testContext(t), nc, "TEST_KV_SCALE", time.Hour, 1)
		return err == nil
	})
	ctx := testContext(t)
	if _, err := jetstream.OpenKV(ctx, nc, "TEST_KV_SCALE", time.Hour, 1); err != nil {
		t.Fatal(err)
	}
	for _, asked := range []int{3, 1} {
		if _, err := jetstream.OpenKV(ctx, nc, "TEST_KV_SCALE", time.Hour, asked); err != nil {
			t.Fatal(err)
		}
		js, _ := natsjs.New(nc)
		st, err := js.Stream(ctx, "KV_TEST_KV_SCALE")
		if err != nil {
			t.Fatal(err)
		}
		if got := st.CachedInfo().Config.Replicas; got != 3 {
			t.Errorf("after OpenKV with %d replicas the bucket has %d, want 3 (scaled up, never down)", asked, got)
		}
	}
}
