package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/jsm.go"
	"github.com/nats-io/jsm.go/api"
)

// A backup is a folder:
//
//	manifest.json              what is in it: the streams in the order they
//	                           were taken, the event stream's last sequence
//	streams/<STREAM>/          one JetStream stream snapshot each, as
//	                           `nats stream backup` writes it (backup.json,
//	                           stream.arc.s2): `nats stream restore` reads it
//	SECRET-signing.key         the site's bundle signing key, mode 0600
//
// The snapshots are JetStream's own (the stream snapshot API, through
// jsm.go): the server copies its message blocks as they stand when the
// snapshot starts, so each stream is consistent in itself and an event
// appended while the backup runs is either in it (at or below the recorded
// last sequence) or after it, never half in.
//
// The event stream is taken first, then the streams beside it: a capture,
// a report's contact address or a mail delivery is stored before the event
// that refers to it, so everything the backed-up events refer to is in the
// later snapshots (with at most a few newer items no event names yet).

// backupFormat names the manifest's layout.
const backupFormat = "crossrank-backup/1"

// backupManifest is manifest.json.
type backupManifest struct {
	Format  string    `json:"format"`
	Created time.Time `json:"created"`
	MadeBy  string    `json:"made_by"`
	// Events is the number of events in the event stream's snapshot and
	// LastSequence the sequence of the newest: an event acknowledged
	// during the backup with a higher sequence is not in it.
	Events       uint64         `json:"events"`
	LastSequence uint64         `json:"last_sequence"`
	Streams      []backupStream `json:"streams"`
	// LeftOut names the streams not taken, and why.
	LeftOut map[string]string `json:"left_out,omitempty"`
	// SigningKey is the key's file in the backup, "" when the key is
	// given by CROSSRANK_SIGNING_KEY and kept elsewhere.
	SigningKey string `json:"signing_key,omitempty"`
}

// backupStream is one stream's snapshot.
type backupStream struct {
	Name     string `json:"name"`
	Dir      string `json:"dir"` // relative to the backup folder
	Messages uint64 `json:"messages"`
	LastSeq  uint64 `json:"last_seq"`
	Bytes    int64  `json:"bytes"` // of the snapshot's files
}

// backupSigningKeyFile is the key's file in a backup: named so, because it
// is the one secret in it and belongs in a different place than the rest.
const backupSigningKeyFile = "SECRET-signing.key"

// leftOutStreams are Crossrank's streams a backup does not take.
var leftOutStreams = map[string]string{
	"KV_" + jetstream.SessionsBucket:     "sign-in sessions: short-lived, and a restored site has a session key of its own, so everyone signs in again",
	"KV_" + jetstream.ImportJobsBucket:   "import jobs: kept for days only, and none runs on a restored site; importing a file again resumes it",
	"OBJ_" + jetstream.ImportFilesBucket: "uploads checked and waiting for confirmation: kept for days only; importing the file again checks it again",
}

// isCrossrankStream reports whether a stream on the server is one of
// Crossrank's (on a shared NATS server there may be others).
func isCrossrankStream(name string) bool {
	for _, p := range []string{"", "KV_", "OBJ_"} {
		if rest, ok := strings.CutPrefix(name, p); ok && (rest == jetstream.StreamName || strings.HasPrefix(rest, jetstream.StreamName+"_")) {
			return true
		}
	}
	return false
}

// parseBackup parses `crossrank backup --out DIR`. Beside a running server
// the server takes the snapshots (its NATS is in its process) and writes
// them to DIR; with --nats-url the command line takes them itself.
func parseBackup(args []string, w io.Writer) (*storeCommand, error) {
	fs, sc := newFlags("backup", w)
	var out string
	settings{fs}.str(&out, "out", "CROSSRANK_BACKUP_OUT", "", "folder to write the backup into: new or empty; written beside it and renamed when whole")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if out == "" || fs.NArg() != 0 {
		return nil, usageError("usage: crossrank backup --out DIR")
	}
	dir, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	sc.forward = []string{"--out", dir}
	// Progress goes where the command's errors go: the terminal's stderr,
	// or, through a server, the client's.
	progress := w
	sc.run = func(ctx context.Context, e *env, out io.Writer) error {
		m, took, err := writeBackup(ctx, e, dir, progress)
		if err != nil {
			return err
		}
		var size int64
		for _, s := range m.Streams {
			size += s.Bytes
		}
		fmt.Fprintf(out, "backed up %d events (last sequence %d) and %d streams beside them, %s, to %s in %.2fs\n",
			m.Events, m.LastSequence, len(m.Streams)-1, formatBytes(size), dir, took.Seconds())
		if m.SigningKey != "" {
			fmt.Fprintf(out, "the signing key is in %s: keep it apart from the rest (anyone holding it signs bundles as this site)\n",
				filepath.Join(dir, m.SigningKey))
		} else {
			fmt.Fprintln(out, "the signing key comes from CROSSRANK_SIGNING_KEY and is not in the backup: keep it with it")
		}
		return nil
	}
	return sc, nil
}

// writeBackup snapshots Crossrank's streams into a folder beside dir and
// renames it to dir when every part is written.
func writeBackup(ctx context.Context, e *env, dir string, progress io.Writer) (backupManifest, time.Duration, error) {
	start := time.Now()
	m := backupManifest{Format: backupFormat, Created: start.UTC(), MadeBy: madeBy(e.nc.ConnectedServerVersion()), LeftOut: leftOutStreams}
	if err := refuseNonEmpty(dir, "back up into"); err != nil {
		return m, 0, err
	}
	key, err := signingKey(e.data, e.log)
	if err != nil {
		return m, 0, err
	}
	mgr, err := jsm.New(e.nc, jsm.WithTimeout(30*time.Second))
	if err != nil {
		return m, 0, err
	}
	names, err := mgr.StreamNames(nil)
	if err != nil {
		return m, 0, fmt.Errorf("list streams: %w", err)
	}
	var take []string
	for _, n := range names {
		if isCrossrankStream(n) && n != jetstream.StreamName && leftOutStreams[n] == "" {
			take = append(take, n)
		}
	}
	slices.Sort(take)
	take = append([]string{jetstream.StreamName}, take...)

	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return m, 0, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".partial-")
	if err != nil {
		return m, 0, err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	for _, name := range take {
		st, err := mgr.LoadStream(name)
		if err != nil {
			return m, 0, fmt.Errorf("stream %s: %w", name, err)
		}
		rel := filepath.Join("streams", name)
		sdir := filepath.Join(tmp, rel)
		p := newProgress(progress, name)
		_, err = st.SnapshotToDirectory(ctx, sdir, jsm.SnapshotNotify(func(sp jsm.SnapshotProgress) {
			p.update(sp.BytesReceived(), sp.BytesExpected())
		}))
		if err != nil {
			return m, 0, fmt.Errorf("snapshot of stream %s: %w", name, err)
		}
		state, err := readSnapshotState(sdir)
		if err != nil {
			return m, 0, err
		}
		size, err := folderSize(sdir)
		if err != nil {
			return m, 0, err
		}
		p.finish(fmt.Sprintf("%d messages, %s", state.Msgs, formatBytes(size)))
		m.Streams = append(m.Streams, backupStream{Name: name, Dir: rel, Messages: state.Msgs, LastSeq: state.LastSeq, Bytes: size})
		if name == jetstream.StreamName {
			m.Events, m.LastSequence = state.Msgs, state.LastSeq
		}
	}
	if os.Getenv("CROSSRANK_SIGNING_KEY") == "" {
		m.SigningKey = backupSigningKeyFile
		seed := base64.StdEncoding.EncodeToString(key.Seed()) + "\n"
		if err := writePrivate(filepath.Join(tmp, backupSigningKeyFile), []byte(seed)); err != nil {
			return m, 0, err
		}
	}
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return m, 0, err
	}
	if err := writePrivate(filepath.Join(tmp, "manifest.json"), append(mj, '\n')); err != nil {
		return m, 0, err
	}
	// The snapshot files are created with the process's umask: make the
	// whole folder the owner's alone whatever it was.
	if err := makePrivate(tmp); err != nil {
		return m, 0, err
	}
	// An empty folder named DIR (made for the backup) is replaced.
	if err := os.Remove(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return m, 0, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return m, 0, err
	}
	done = true
	return m, time.Since(start), nil
}

// madeBy names the binary and the nats-server that wrote a backup.
func madeBy(serverVersion string) string {
	rev := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				rev = s.Value
			}
		}
	}
	return fmt.Sprintf("crossrank %s, nats-server %s", rev, serverVersion)
}

// readSnapshotState reads the stream's state as the snapshot recorded it.
func readSnapshotState(dir string) (api.StreamState, error) {
	var meta struct {
		Config api.StreamConfig `json:"config"`
		State  api.StreamState  `json:"state"`
	}
	b, err := os.ReadFile(filepath.Join(dir, jsm.SnapshotMetaFile))
	if err == nil {
		err = json.Unmarshal(b, &meta)
	}
	if err != nil {
		return meta.State, fmt.Errorf("snapshot %s: %w", dir, err)
	}
	return meta.State, nil
}
