package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/projections"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// dataStore is an in-process nats-server and the event store on a data
// directory laid out as `crossrank serve` lays it out (DIR/nats, DIR/read.db).
type dataStore struct {
	dir    string
	srv    *server.Server
	nc     *nats.Conn
	events *jetstream.Store
}

// openDataStore starts the embedded server on dir. With sync it is the
// production server (jetstream.StartEmbedded: SyncAlways, fsync before every
// ack); without, the same options but the server's default periodic sync,
// used only to generate data faster, never to measure.
func openDataStore(ctx context.Context, dir string, sync bool) (*dataStore, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	b := &dataStore{dir: dir}
	if sync {
		emb, err := jetstream.StartEmbedded(jetstream.EmbeddedOptions{Dir: filepath.Join(dir, "nats")})
		if err != nil {
			return nil, err
		}
		b.srv = emb.Server()
	} else {
		// The options of jetstream.StartEmbedded, less SyncAlways.
		srv, err := server.NewServer(&server.Options{ServerName: "crossrank", JetStream: true,
			StoreDir: filepath.Join(dir, "nats", "jetstream"), NoSigs: true, NoLog: true, DontListen: true,
			JetStreamLimits: server.JSLimitOpts{MaxBatchSize: jetstream.EmbeddedMaxBatch}})
		if err != nil {
			return nil, err
		}
		srv.Start()
		if !srv.ReadyForConnections(10 * time.Second) {
			srv.Shutdown()
			return nil, errors.New("nats-server not ready")
		}
		b.srv = srv
	}
	var err error
	b.nc, err = nats.Connect("", nats.InProcessServer(b.srv), nats.Name("crossrank-bench"), nats.ReconnectBufSize(-1))
	if err != nil {
		b.close()
		return nil, err
	}
	octx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	// As serve opens the embedded server's store: its atomic batches may
	// hold EmbeddedMaxBatch messages (the default, 1000, refuses the first
	// edition of a ranking of more than about 1,000 proposals).
	if b.events, err = jetstream.Open(octx, b.nc, jetstream.Config{MaxBatch: jetstream.EmbeddedMaxBatch}); err != nil {
		b.close()
		return nil, err
	}
	return b, nil
}

func (b *dataStore) readPath() string { return filepath.Join(b.dir, "read.db") }

// close stops the server; closing again does nothing.
func (b *dataStore) close() {
	if b.nc != nil {
		b.nc.Close()
		b.nc = nil
	}
	if b.srv != nil {
		b.srv.Shutdown()
		b.srv.WaitForShutdown()
		b.srv = nil
	}
}

// dataset describes generated data kept under --work and reused by later
// runs when seed and size match (marker file bench.json).
type dataset struct {
	Kind      string  `json:"kind"`
	Seed      int64   `json:"seed"`
	Size      int     `json:"size"`
	Events    uint64  `json:"events"`
	SyncGen   bool    `json:"generated_with_sync"`
	GenSecond float64 `json:"generation_seconds"`
}

func markerPath(dir string) string { return filepath.Join(dir, "bench.json") }

// reuse reports whether dir already holds the dataset want.
func reuse(dir string, want dataset) (dataset, bool) {
	var got dataset
	b, err := os.ReadFile(markerPath(dir))
	if err != nil || json.Unmarshal(b, &got) != nil {
		return got, false
	}
	return got, got.Kind == want.Kind && got.Seed == want.Seed && got.Size == want.Size
}

// prepare returns the data directory of a dataset under work, generating
// it with gen when it is missing or different. gen appends to the store;
// the read models are then built from the stream.
func prepare(ctx context.Context, o *options, want dataset, gen func(context.Context, *dataStore) error) (string, dataset, error) {
	dir := filepath.Join(o.work, fmt.Sprintf("%s-seed%d-n%d", want.Kind, want.Seed, want.Size))
	if got, ok := reuse(dir, want); ok {
		o.logf("reusing %s: %d events", dir, got.Events)
		return dir, got, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", want, err
	}
	o.logf("generating %s (%s, seed %d, size %d, SyncAlways %v)…", dir, want.Kind, want.Seed, want.Size, o.genSync)
	start := time.Now()
	b, err := openDataStore(ctx, dir, o.genSync)
	if err != nil {
		return "", want, err
	}
	err = gen(ctx, b)
	if err == nil {
		want.Events, err = b.events.LastSequence(ctx)
	}
	if err == nil {
		var st projections.RebuildStats
		st, err = projections.Rebuild(ctx, b.events, b.readPath())
		o.logf("  read models built: %d events in %.1fs", st.Events, st.Duration.Seconds())
	}
	b.close()
	if err != nil {
		return "", want, fmt.Errorf("generate %s: %w", want.Kind, err)
	}
	want.SyncGen, want.GenSecond = o.genSync, time.Since(start).Seconds()
	o.logf("  generated %d events in %.1fs", want.Events, want.GenSecond)
	js, _ := json.MarshalIndent(want, "", "  ")
	return dir, want, os.WriteFile(markerPath(dir), js, 0o640)
}

func natsVersion() string { return server.VERSION }
