package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"
)

// TestClusterScaleOut runs the scale-out deployment of docs/deploy.md on
// loopback: a three-node NATS JetStream cluster (in the test process) with
// the stream at three replicas, and two `crossrank serve` replicas, each
// connected to a different node and keeping its own read models. Clients
// write through both, the two reviewers of a proposal voting at the same
// moment through different replicas; one NATS node (the one replica B is
// connected to) is stopped and started again under load. At the end both
// replicas' read models hold the same rows, every acknowledged write is in
// the stream exactly once, and `crossrank verify` passes on both.
func TestClusterScaleOut(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	start := time.Now()
	nodes := startNATSCluster(t, 3)
	urlA, urlB := nodes[0].url, nodes[1].url

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	nc, err := jetstream.Connect(strings.Join([]string{nodes[0].url, nodes[1].url, nodes[2].url}, ","), "cluster-test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	// The cluster elects a meta leader before it answers JetStream requests.
	clusterUp := waitUntil(t, "the cluster to create the stream at 3 replicas", 60*time.Second, func() bool {
		_, err := jetstream.Open(ctx, nc, jetstream.Config{Replicas: 3})
		if err != nil && !errors.Is(err, events.ErrUnavailable) {
			t.Logf("open stream: %v", err)
		}
		return err == nil
	})
	t.Logf("3-node cluster serving JetStream after %s", clusterUp.Round(time.Millisecond))

	dataA, dataB := t.TempDir(), t.TempDir()
	tokens := demoTokens(t, "--data", dataA, "--nats-url", urlA, "--replicas", "3")
	t.Logf("demo seeded and tokens issued through the cluster by %s", time.Since(start).Round(time.Millisecond))
	a := startServe(t, "replica A", dataA, "--nats-url", urlA, "--replicas", "3", "--no-demo")
	b := startServe(t, "replica B", dataB, "--nats-url", urlB, "--replicas", "3", "--no-demo")

	t.Logf("both replicas ready by %s", time.Since(start).Round(time.Millisecond))
	// Story steps alternate between the replicas; the two votes go one to each.
	l := startAPILoad(tokens, 8, uint64(time.Now().UnixNano()), func(story, step int) string {
		if (story+step)%2 == 0 {
			return a.url
		}
		return b.url
	})
	time.Sleep(2 * time.Second)
	leader := streamLeader(ctx, nc)
	nodes[1].stop()
	down := time.Now()
	time.Sleep(3 * time.Second)
	nodes[1].start()
	t.Logf("stopped %s (replica B's node; the stream leader was %s) for %s under load",
		nodes[1].opts.Name, leader, time.Since(down).Round(time.Millisecond))
	time.Sleep(2 * time.Second)
	l.stop()

	ops := l.snapshot()
	t.Logf("load: %d requests, %d stories done (%s)", len(ops), l.stories, opSummary(ops))
	// Each story's steps alternate between the replicas: a step must see
	// the one before it, whichever replica took it (the handler decides a
	// refusal again on the stored state before answering 4xx).
	for _, o := range ops {
		if o.Status >= 400 && o.Status < 500 && o.Status != 409 {
			t.Errorf("%s %s on %s: %d %+v", o.Kind, o.Path, o.Base, o.Status, o.Problem)
		}
	}
	if l.stories == 0 {
		t.Errorf("no story went from opening to both votes")
	}
	// Requests the clients gave up on at the stop may still be finishing
	// on the servers; let them, so "converged" means the final state.
	time.Sleep(500 * time.Millisecond)
	stopped := time.Now()
	// Each replica's convergence: when its read models first reached the
	// end of the stream as it stands once both have.
	var at [2]time.Duration
	var last [2]uint64
	waitUntil(t, "both replicas' read models to reach the end of the stream", 60*time.Second, func() bool {
		for i, r := range []*serveProc{a, b} {
			applied, _, ok := r.caughtUp()
			switch {
			case !ok:
				at[i] = 0
			case at[i] == 0 || applied != last[i]:
				at[i] = time.Since(stopped)
			}
			last[i] = applied
		}
		return at[0] > 0 && at[1] > 0 && last[0] == last[1]
	})
	t.Logf("replicas converged at sequence %d: A %s and B %s after the load stopped",
		last[0], at[0].Round(time.Millisecond), at[1].Round(time.Millisecond))

	for _, r := range []*serveProc{a, b} {
		if m, err := r.metrics(); err == nil {
			t.Logf("%s: %v append conflicts; votes %v ok, %v refused with 409, %v with 503", r.name, m["crossrank_append_conflicts_total"],
				m[`crossrank_commands_total{command="proposal.vote",status="200"}`],
				m[`crossrank_commands_total{command="proposal.vote",status="409"}`],
				m[`crossrank_commands_total{command="proposal.vote",status="503"}`])
		}
	}
	if r := streamReplicas(ctx, nc); r != 3 {
		t.Errorf("the stream has %d replicas after the run, want 3", r)
	}
	rep := checkLedger(t, ops, readStream(t, nodes[0].url, 3))
	t.Logf("stream: %s", rep)
	if rep.Acked == 0 || rep.AckedFound != rep.Acked {
		t.Errorf("acknowledged %d writes, found %d", rep.Acked, rep.AckedFound)
	}
	votedApart := 0
	for _, o := range ops {
		if o.Kind == "vote" && o.acked() && !o.Answer.Replayed && len(o.Answer.Events) == 2 {
			votedApart++
		}
	}
	t.Logf("%d proposals cross-validated by votes cast at once through both replicas", votedApart)

	a.stopAtEnd()
	b.stopAtEnd()
	t.Logf("replicas stopped by %s", time.Since(start).Round(time.Millisecond))
	dumpA, dumpB := dumpReadModels(t, dataA+"/read.db"), dumpReadModels(t, dataB+"/read.db")
	if dumpA != dumpB {
		t.Errorf("the replicas' read models differ: %s", firstDifference(dumpB, dumpA))
	} else {
		t.Logf("read models identical: %d bytes of dump each", len(dumpA))
	}
	for _, r := range []struct{ data, url string }{{dataA, urlA}, {dataB, urlB}} {
		out, err := runCLIErr(t, "verify", "--data", r.data, "--nats-url", r.url, "--replicas", "3")
		if err != nil {
			t.Errorf("crossrank verify --data %s: %v\n%s", r.data, err, out)
		} else {
			t.Logf("%s", lastLine(out))
		}
	}
}

// startNATSCluster starts n nodes of one JetStream cluster on loopback.
func startNATSCluster(t *testing.T, n int) []*natsNode {
	t.Helper()
	routes := make([]string, n)
	for i := range routes {
		routes[i] = "nats://" + freeLoopbackAddr(t)
	}
	nodes := make([]*natsNode, n)
	for i := range nodes {
		nodes[i] = startNATS(t, jetstream.EmbeddedOptions{
			Dir:    t.TempDir(),
			Listen: freeLoopbackAddr(t), // restarted on it (TestClusterColdStart)
			Name:   fmt.Sprintf("node-%d", i+1),
			Cluster: &jetstream.ClusterOptions{
				Name:   "crossrank-scaleout",
				Listen: strings.TrimPrefix(routes[i], "nats://"),
				Routes: routes,
			},
		})
	}
	return nodes
}

// streamInfo returns the CROSSRANK stream's info, nil if it cannot be had.
func streamInfo(ctx context.Context, nc *nats.Conn) *natsjs.StreamInfo {
	js, err := natsjs.New(nc)
	if err != nil {
		return nil
	}
	st, err := js.Stream(ctx, jetstream.StreamName)
	if err != nil {
		return nil
	}
	return st.CachedInfo()
}

// streamLeader names the node leading the CROSSRANK stream ("?" if unknown).
func streamLeader(ctx context.Context, nc *nats.Conn) string {
	if info := streamInfo(ctx, nc); info != nil && info.Cluster != nil {
		return info.Cluster.Leader
	}
	return "?"
}

// streamReplicas returns the CROSSRANK stream's replicas (0 if unknown).
func streamReplicas(ctx context.Context, nc *nats.Conn) int {
	if info := streamInfo(ctx, nc); info != nil {
		return info.Config.Replicas
	}
	return 0
}
