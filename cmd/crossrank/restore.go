package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/projections"
	"github.com/nats-io/jsm.go"
	"github.com/nats-io/jsm.go/api"
	"github.com/nats-io/nats.go"
)

// restore runs `crossrank restore DIR --data NEW`: the streams of a backup
// (backup.go) into a new data folder's embedded NATS — or, with
// --nats-url, onto a server or cluster that has none of them — then the
// signing key, then the read models built from the restored events, so
// that `crossrank verify` and `crossrank serve` find a whole folder.
//
// It never writes over a store: a data folder that holds anything, or a
// server that has any of the backup's streams, is refused before anything
// is written.
func restore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	c.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: crossrank restore DIR --data NEW   (or --nats-url URL [--replicas 3] onto a server without Crossrank's streams)")
		fs.PrintDefaults()
	}
	// DIR may come before the flags, as the usage writes it.
	var dir string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		dir, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return exitError{2, err}
	}
	if dir == "" && fs.NArg() == 1 {
		dir = fs.Arg(0)
	} else if fs.NArg() != 0 || dir == "" {
		fs.Usage()
		return exitError{2, errors.New("usage: crossrank restore DIR --data NEW")}
	}
	start := time.Now()
	m, key, err := readBackup(dir)
	if err != nil {
		return exitError{1, err}
	}
	replicas := 1
	if c.natsURL != "" {
		replicas = max(1, c.replicas)
	}

	var nc *nats.Conn
	// closeStore closes what was opened; undo, after a failure, also
	// removes what was written.
	var closeStore func()
	undo := func() {}
	if c.natsURL == "" {
		if err := refuseNonEmpty(c.data, "restore into"); err != nil {
			return err
		}
		_, statErr := os.Stat(c.data)
		existed := statErr == nil
		if err := openDataFolder(c.data); err != nil {
			return err
		}
		lock, err := lockData(c.data)
		if err != nil {
			return err
		}
		srv, err := jetstream.StartEmbedded(jetstream.EmbeddedOptions{Dir: filepath.Join(c.data, "nats"), Bulk: true})
		if err == nil {
			nc, err = srv.Connect("crossrank-restore")
		}
		closeStore = func() {
			if nc != nil {
				nc.Drain()
				nc.Close()
			}
			if srv != nil {
				srv.Shutdown()
			}
			lock.release()
		}
		// A restore that fails leaves the folder as it found it (empty
		// or absent), so that running it again is not refused.
		undo = func() {
			if !existed {
				os.RemoveAll(c.data)
				return
			}
			entries, _ := os.ReadDir(c.data)
			for _, e := range entries {
				os.RemoveAll(filepath.Join(c.data, e.Name()))
			}
		}
		if err != nil {
			closeStore()
			undo()
			return fmt.Errorf("event store: %w", err)
		}
	} else {
		if nc, err = jetstream.Connect(c.natsURL, "crossrank-restore"); err != nil {
			return fmt.Errorf("event store: %w", err)
		}
		closeStore = func() { nc.Drain(); nc.Close() }
	}
	ok := false
	defer func() {
		closeStore()
		if !ok {
			undo()
		}
	}()

	mgr, err := jsm.New(nc, jsm.WithTimeout(time.Minute))
	if err != nil {
		return err
	}
	var present []string
	for _, s := range m.Streams {
		known, err := mgr.IsKnownStream(s.Name)
		if err != nil {
			return fmt.Errorf("stream %s: %w", s.Name, err)
		}
		if known {
			present = append(present, s.Name)
		}
	}
	if len(present) > 0 {
		return exitError{1, fmt.Errorf("will not restore over a store: the server has the stream(s) %s already; restore onto a server without them. Nothing was changed",
			strings.Join(present, ", "))}
	}

	var size int64
	for _, s := range m.Streams {
		sdir := filepath.Join(dir, s.Dir)
		cfg, err := readSnapshotConfig(sdir)
		if err != nil {
			return err
		}
		// A backup of a 3-node cluster restores into one embedded server,
		// and the other way round.
		cfg.Replicas = replicas
		p := newProgress(stderr, s.Name)
		_, state, err := mgr.RestoreSnapshotFromDirectory(ctx, s.Name, sdir, jsm.RestoreConfiguration(cfg),
			jsm.RestoreNotify(func(rp jsm.RestoreProgress) {
				p.update(rp.BytesSent(), uint64(s.Bytes))
			}))
		if err != nil {
			return fmt.Errorf("restore stream %s: %w", s.Name, err)
		}
		if state.Msgs != s.Messages || state.LastSeq != s.LastSeq {
			return fmt.Errorf("restore stream %s: restored %d messages up to sequence %d, the backup recorded %d up to %d",
				s.Name, state.Msgs, state.LastSeq, s.Messages, s.LastSeq)
		}
		p.finish(fmt.Sprintf("%d messages, %s", state.Msgs, formatBytes(s.Bytes)))
		size += s.Bytes
	}
	streamsTook := time.Since(start)

	if key != "" {
		if c.natsURL == "" {
			if err := writePrivate(filepath.Join(c.data, signingKeyFile), []byte(key)); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(stdout, "set CROSSRANK_SIGNING_KEY on every replica to the key in %s: bundles are signed with it\n",
				filepath.Join(dir, m.SigningKey))
		}
	}

	// The read models, built now rather than on the first start: verify
	// reads them, and the server starts at once. Replicas on a cluster
	// each have a data folder of their own and rebuild theirs when they
	// start on a stream their read models are ahead of or missing.
	var stats projections.RebuildStats
	if c.natsURL == "" {
		store, err := jetstream.Open(ctx, nc, jetstream.Config{Replicas: 1, MaxBatch: jetstream.EmbeddedMaxBatch})
		if err != nil {
			return fmt.Errorf("event store: %w", err)
		}
		fmt.Fprintf(stderr, "building the read models from %d events…\n", m.Events)
		if stats, err = projections.Rebuild(ctx, store, c.readPath()); err != nil {
			return fmt.Errorf("rebuild read models: %w", err)
		}
		// The server stored without an fsync per message (Bulk): stop it,
		// then make every file it wrote durable at once.
		closeStore()
		closeStore = func() {}
		if err := syncTree(filepath.Join(c.data, "nats")); err != nil {
			return err
		}
		if err := makePrivate(c.data); err != nil {
			return err
		}
	}
	ok = true
	where := c.data
	if c.natsURL != "" {
		where = c.natsURL
	}
	fmt.Fprintf(stdout, "restored %d events (last sequence %d) and %d streams beside them, %s, into %s in %.2fs (streams %.2fs, read models %.2fs)\n",
		m.Events, m.LastSequence, len(m.Streams)-1, formatBytes(size), where, time.Since(start).Seconds(),
		streamsTook.Seconds(), stats.Duration.Seconds())
	return nil
}

// readBackup reads a backup's manifest and checks that every part it names
// is there; it returns the signing key file's contents ("" when the backup
// has none).
func readBackup(dir string) (backupManifest, string, error) {
	var m backupManifest
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return m, "", fmt.Errorf("%s is not a Crossrank backup: %w", dir, err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, "", fmt.Errorf("%s: manifest.json: %w", dir, err)
	}
	if m.Format != backupFormat {
		return m, "", fmt.Errorf("%s: format %q, this crossrank reads %q", dir, m.Format, backupFormat)
	}
	if len(m.Streams) == 0 || m.Streams[0].Name != jetstream.StreamName {
		return m, "", fmt.Errorf("%s: the manifest names no event stream", dir)
	}
	for _, s := range m.Streams {
		if filepath.IsAbs(s.Dir) || strings.Contains(s.Dir, "..") {
			return m, "", fmt.Errorf("%s: stream %s is at %q, outside the backup", dir, s.Name, s.Dir)
		}
		if _, err := jsm.SnapshotDataPath(filepath.Join(dir, s.Dir)); err != nil {
			return m, "", fmt.Errorf("%s: stream %s: %w", dir, s.Name, err)
		}
	}
	if m.SigningKey == "" {
		return m, "", nil
	}
	k, err := os.ReadFile(filepath.Join(dir, filepath.Base(m.SigningKey)))
	if err != nil {
		return m, "", fmt.Errorf("%s: the signing key: %w", dir, err)
	}
	if _, err := parseSigningKey(string(k)); err != nil {
		return m, "", fmt.Errorf("%s: %w", filepath.Join(dir, m.SigningKey), err)
	}
	return m, string(k), nil
}

// readSnapshotConfig reads the stream's configuration as the snapshot
// recorded it.
func readSnapshotConfig(dir string) (api.StreamConfig, error) {
	var meta struct {
		Config api.StreamConfig `json:"config"`
	}
	b, err := os.ReadFile(filepath.Join(dir, jsm.SnapshotMetaFile))
	if err == nil {
		err = json.Unmarshal(b, &meta)
	}
	if err != nil {
		return meta.Config, fmt.Errorf("snapshot %s: %w", dir, err)
	}
	return meta.Config, nil
}

// syncTree fsyncs every file and folder under dir.
func syncTree(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	})
}
