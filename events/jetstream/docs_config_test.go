package jetstream_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
)

// documentedConfig returns the NATS configuration block of docs/deploy.md
// (the fenced block marked conf): what an operator copies to
// /etc/nats/nats-server.conf.
func documentedConfig(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "deploy.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```conf\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/deploy.md has no ```conf block: the NATS configuration the operator copies")
	}
	return string(m[1])
}

// inlineConfigs returns the one-line NATS settings the README and the docs
// quote in backticks (`jetstream { … }`).
func inlineConfigs(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, f := range []string{filepath.Join("..", "..", "README.md"), filepath.Join("..", "..", "docs", "deploy.md")} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile("`(jetstream \\{[^`]*\\})`").FindAllSubmatch(b, -1) {
			out = append(out, string(m[1]))
		}
	}
	return out
}

// replace replaces the one line of conf matching pattern, failing the test
// when the documented block no longer has it: the test and the docs change
// together.
func replace(t *testing.T, conf, pattern, with string) string {
	t.Helper()
	re := regexp.MustCompile("(?m)" + pattern)
	if n := len(re.FindAllStringIndex(conf, -1)); n != 1 {
		t.Fatalf("the documented NATS configuration has %d lines matching %q, want 1:\n%s", n, pattern, conf)
	}
	return re.ReplaceAllString(conf, with)
}

func loadConfig(t *testing.T, conf string) *server.Options {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nats-server.conf")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	opts, err := server.ProcessConfigFile(path)
	if err != nil {
		t.Fatalf("nats-server refuses the documented configuration: %v\n%s", err, conf)
	}
	return opts
}

// TestDocumentedNATSConfig loads the NATS configuration docs/deploy.md
// gives, and every one-line setting the README quotes, with nats-server's
// own parser: the batch limit an edition needs is spelled as the server
// reads it (2.15 refused the documented max_batch_size as an unknown
// field). The full run starts a three-node cluster from the block, as an
// operator would on three hosts, and stores an atomic batch past the
// server's default of 1,000 messages.
func TestDocumentedNATSConfig(t *testing.T) {
	t.Parallel()
	conf := documentedConfig(t)
	opts := loadConfig(t, conf)
	if got := opts.JetStreamLimits.MaxBatchSize; got != jetstream.EmbeddedMaxBatch {
		t.Errorf("documented batch limit %d, want %d (the embedded server's, so an edition publishes the same on both)", got, jetstream.EmbeddedMaxBatch)
	}
	if !opts.SyncAlways {
		t.Error("documented configuration does not fsync before every ack (sync_interval: always)")
	}
	inline := inlineConfigs(t)
	if len(inline) == 0 {
		t.Error("the README quotes no jetstream { … } setting; this test reads it")
	}
	for _, c := range inline {
		if got := loadConfig(t, c).JetStreamLimits.MaxBatchSize; got != jetstream.EmbeddedMaxBatch {
			t.Errorf("`%s` sets a batch limit of %d, want %d", c, got, jetstream.EmbeddedMaxBatch)
		}
	}
	if testing.Short() {
		t.Skip("full run only: starts a 3-node cluster from the documented configuration")
	}

	const nodes = 3
	routes := make([]string, nodes)
	for i := range routes {
		routes[i] = freeAddr(t)
	}
	var urls []string
	for i := range nodes {
		c := replace(t, conf, `^server_name: n1$`, fmt.Sprintf("server_name: n%d", i+1))
		c = replace(t, c, `^listen: 0\.0\.0\.0:4222$`, "listen: 127.0.0.1:-1")
		c = replace(t, c, `^http: 127\.0\.0\.1:8222`, "http: 127.0.0.1:-1")
		c = replace(t, c, `^(\s*)store_dir: /var/lib/nats$`, "${1}store_dir: "+strings.ReplaceAll(t.TempDir(), `\`, `/`))
		c = replace(t, c, `^(\s*)listen: 0\.0\.0\.0:6222$`, "${1}listen: "+routes[i])
		for n := range nodes {
			c = replace(t, c, fmt.Sprintf(`nats-route://n%d\.internal:6222$`, n+1), "nats-route://"+routes[n])
		}
		o := loadConfig(t, c)
		o.NoSigs = true
		srv, err := server.NewServer(o)
		if err != nil {
			t.Fatalf("node %d: %v", i+1, err)
		}
		srv.Start()
		t.Cleanup(srv.Shutdown)
		if !srv.ReadyForConnections(20 * time.Second) {
			t.Fatalf("node %d not ready", i+1)
		}
		urls = append(urls, srv.ClientURL())
	}
	nc := connectURL(t, strings.Join(urls, ","))
	var s *jetstream.Store
	waitFor(t, "the cluster to create the stream", 60*time.Second, func() bool {
		var err error
		s, err = jetstream.Open(testContext(t), nc, jetstream.Config{Replicas: 3, MaxBatch: jetstream.EmbeddedMaxBatch})
		return err == nil
	})
	agg := events.Aggregate{Kind: events.KindEntry, ID: "e-" + events.NewID(time.Now())}
	const n = 1_500 // past the server's default limit of 1,000
	evs := make([]events.Event, n)
	for i := range evs {
		at := time.Now()
		e, err := events.New(events.NewID(at), at, "alice", agg.ID, &events.EntryCreated{Ranking: "gpu-cloud",
			Slug: fmt.Sprintf("entry-%d", i), Name: events.Text{Zh: "算力云", En: "Compute Cloud"}, Category: "marketplace"})
		if err != nil {
			t.Fatal(err)
		}
		evs[i] = e
	}
	var err error
	waitFor(t, "an atomic batch of 1,500 events to be stored", 60*time.Second, func() bool {
		_, err = s.Append(testContext(t), nil, evs...)
		return err == nil
	})
	got, err := s.Load(testContext(t), agg, 0)
	if err != nil || len(got) != n {
		t.Fatalf("Load: %d events, %v; want %d", len(got), err, n)
	}
}
