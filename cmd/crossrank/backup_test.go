package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/projections/history"
)

// TestBackupRunningServerMidWrite backs up a serving `crossrank serve`
// through its control socket while API clients write, restores the backup
// into a new folder and compares: the restored stream is the source's up
// to the sequence the backup recorded, every write acknowledged before or
// during the backup is in it exactly when its sequence is at or below that
// one, verify passes, and the restored site answers its public pages with
// the source's ETags and bytes.
func TestBackupRunningServerMidWrite(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	data := t.TempDir()
	tokens := demoTokens(t, "--data", data)
	natsAddr := freeLoopbackAddr(t)
	src := startServe(t, "source", data, "--no-demo", "--nats-listen", natsAddr)

	l := startAPILoad(tokens, 4, uint64(time.Now().UnixNano()), func(int, int) string { return src.url })
	acked := func() int {
		n := 0
		for _, o := range l.snapshot() {
			if o.acked() {
				n++
			}
		}
		return n
	}
	waitUntil(t, "writes before the backup", 30*time.Second, func() bool { return acked() >= 20 })
	dir := filepath.Join(t.TempDir(), "backup")
	start := time.Now()
	out := runCLI(t, "backup", "--out", dir, "--data", data)
	t.Logf("backup beside the server under load in %s:\n%s", time.Since(start).Round(time.Millisecond), out)
	before := acked()
	waitUntil(t, "writes after the backup", 30*time.Second, func() bool { return acked() >= before+10 })
	l.stop()

	m := readManifest(t, dir)
	checkPrivate(t, dir)
	key, err := os.ReadFile(filepath.Join(dir, backupSigningKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	if own, _ := os.ReadFile(filepath.Join(data, signingKeyFile)); !bytes.Equal(key, own) {
		t.Errorf("the backup's %s is not the data folder's signing key", backupSigningKeyFile)
	}
	var names []string
	for _, s := range m.Streams {
		names = append(names, s.Name)
	}
	t.Logf("streams in the backup: %v; left out: %v", names, m.LeftOut)
	if names[0] != jetstream.StreamName {
		t.Errorf("the event stream is not taken first: %v", names)
	}
	for _, n := range names {
		if n == "KV_"+jetstream.SessionsBucket {
			t.Errorf("the sessions are in the backup: %v", names)
		}
	}
	if !strings.Contains(strings.Join(names, " "), "KV_CROSSRANK_") {
		t.Errorf("no KV bucket in the backup: %v", names)
	}

	restored := filepath.Join(t.TempDir(), "restored")
	out = runCLI(t, "restore", dir, "--data", restored)
	t.Logf("restore:\n%s", out)
	checkPrivate(t, restored)

	source := readStream(t, "nats://"+natsAddr, 1)
	copied := readDataStream(t, restored)
	if uint64(len(copied)) != m.Events || len(copied) == 0 || copied[len(copied)-1].Sequence != m.LastSequence {
		t.Fatalf("restored %d events, the backup recorded %d up to sequence %d", len(copied), m.Events, m.LastSequence)
	}
	if len(source) <= len(copied) {
		t.Fatalf("the source has %d events, the backup %d: no write after the backup", len(source), len(copied))
	}
	for i := range copied {
		if !sameEvent(source[i], copied[i]) {
			t.Fatalf("event %d differs: source %s %s, restored %s %s", i, source[i].ID, source[i].Type, copied[i].ID, copied[i].Type)
		}
	}

	// The rule for writes acknowledged while the backup ran: in it when
	// their sequence is at or below the one it recorded, after it (and
	// not in it) otherwise.
	in := map[string]bool{}
	for _, ev := range copied {
		in[ev.CorrelationID] = true
	}
	var inside, after int
	for _, o := range l.snapshot() {
		if !o.acked() {
			continue
		}
		switch {
		case o.Answer.Sequence <= m.LastSequence && in[o.Key]:
			inside++
		case o.Answer.Sequence > m.LastSequence && !in[o.Key]:
			after++
		default:
			t.Errorf("%s %s acknowledged at sequence %d: in the backup %v, which ends at %d", o.Kind, o.Key, o.Answer.Sequence, in[o.Key], m.LastSequence)
		}
	}
	t.Logf("acknowledged writes: %d in the backup, %d after it; source %d events, backup %d", inside, after, len(source), len(copied))

	if out, err := runCLIErr(t, "verify", "--data", restored); err != nil {
		t.Fatalf("verify on the restored folder: %v\n%s", err, out)
	}
	out, err = runCLIErr(t, "restore", dir, "--data", restored)
	if err == nil || !strings.Contains(out, "not empty") || !strings.Contains(out, "Nothing was changed") {
		t.Errorf("a restore over the restored folder: %v\n%s", err, out)
	}

	// The load writes proposals, not editions: the published pages and
	// the bundles are the same on both sites.
	dst := startServe(t, "restored", restored, "--no-demo")
	samePublicPages(t, src.url, dst.url, []string{
		"/r/" + demo.RankingSlug + "/editions/1",
		"/r/" + demo.RankingSlug + "/editions/1/bundle",
		"/r/" + demo.RankingSlug + "/editions/1/ranking.json",
		bundle.WellKnownPath,
	})

	// Against a NATS server rather than a data folder: a backup of the
	// source's NATS from outside the server, restored onto another
	// server, and refused there the second time.
	dir2 := filepath.Join(t.TempDir(), "backup-nats")
	runCLI(t, "backup", "--nats-url", "nats://"+natsAddr, "--data", t.TempDir(), "--out", dir2)
	m2 := readManifest(t, dir2)
	if m2.Events < uint64(len(source)) {
		t.Errorf("a backup over --nats-url after the load holds %d events, the source had %d before", m2.Events, len(source))
	}
	other := startNATS(t, jetstream.EmbeddedOptions{Dir: t.TempDir(), Listen: "127.0.0.1:0"})
	out = runCLI(t, "restore", dir2, "--nats-url", other.url, "--data", t.TempDir())
	if !strings.Contains(out, "CROSSRANK_SIGNING_KEY") {
		t.Errorf("a restore onto a NATS server does not say where the signing key goes:\n%s", out)
	}
	onto := readStream(t, other.url, 1)
	if uint64(len(onto)) != m2.Events || !sameEvent(onto[len(source)-1], source[len(source)-1]) {
		t.Errorf("restored onto a NATS server: %d events, the backup recorded %d", len(onto), m2.Events)
	}
	out, err = runCLIErr(t, "restore", dir2, "--nats-url", other.url, "--data", t.TempDir())
	if err == nil || !strings.Contains(out, "has the stream(s) CROSSRANK") {
		t.Errorf("a restore onto a server that has the streams: %v\n%s", err, out)
	}
}

// TestBackupRestoresLargeHistory backs up and restores a ranking of 10,000
// entries published in 20 editions (about 90,000 events) and checks the
// restored folder as above; it logs the times and sizes.
func TestBackupRestoresLargeHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("full run only: backs up and restores a 10,000-entry history (about 90,000 events)")
	}
	t.Parallel()
	crossrankBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	data := t.TempDir()
	start := time.Now()
	func() {
		srv, err := jetstream.StartEmbedded(jetstream.EmbeddedOptions{Dir: filepath.Join(data, "nats"), StartTimeout: 20 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Shutdown()
		nc, err := srv.Connect("large-history")
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		store, err := jetstream.Open(ctx, nc, jetstream.Config{MaxBatch: jetstream.EmbeddedMaxBatch})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := history.WriteLarge(ctx, store, history.Large{Slug: "big", Entries: 10_000, Criteria: 2, Seed: 11}); err != nil {
			t.Fatal(err)
		}
	}()
	t.Logf("wrote the history in %s", time.Since(start).Round(time.Millisecond))

	dir := filepath.Join(t.TempDir(), "backup")
	start = time.Now()
	out := runCLILong(t, 5*time.Minute, "backup", "--out", dir, "--data", data)
	backupTook := time.Since(start)
	size, err := folderSize(dir)
	if err != nil {
		t.Fatal(err)
	}
	restored := filepath.Join(t.TempDir(), "restored")
	start = time.Now()
	out += runCLILong(t, 5*time.Minute, "restore", dir, "--data", restored)
	restoreTook := time.Since(start)
	m := readManifest(t, dir)
	t.Logf("10,000 entries, %d events: backup %s, %s on disk; restore with the read models %s\n%s",
		m.Events, backupTook.Round(time.Millisecond), formatBytes(size), restoreTook.Round(time.Millisecond), out)
	checkPrivate(t, dir)

	source, copied := readDataStream(t, data), readDataStream(t, restored)
	if len(source) != len(copied) || uint64(len(copied)) != m.Events {
		t.Fatalf("source %d events, restored %d, the backup recorded %d", len(source), len(copied), m.Events)
	}
	for i := range source {
		if !sameEvent(source[i], copied[i]) {
			t.Fatalf("event %d differs: source %s %s, restored %s %s", i, source[i].ID, source[i].Type, copied[i].ID, copied[i].Type)
		}
	}
	// The source's read models, built before it serves (a server
	// rebuilds them before it listens).
	runCLILong(t, 5*time.Minute, "rebuild", "--data", data)
	src := startServe(t, "source", data, "--no-demo")
	dst := startServe(t, "restored", restored, "--no-demo")
	samePublicPages(t, src.url, dst.url, []string{
		"/",
		"/r/big",
		"/r/big/editions",
		"/r/big/editions/20",
		"/r/big/editions/20/bundle",
		"/r/big/editions/1/ranking.csv",
	})
	// Through the restored server, on its read models: the ones restore
	// built, which it started on without rebuilding.
	start = time.Now()
	if out, err := runCLILongErr(5*time.Minute, "verify", "--data", restored); err != nil {
		t.Fatalf("verify on the restored folder: %v\n%s", err, out)
	}
	t.Logf("verify on the restored folder in %s", time.Since(start).Round(time.Millisecond))
	if dst.log.contains("rebuilding read models") {
		t.Errorf("the restored server rebuilt the read models restore had built")
	}
}

// sameEvent compares two events as stored.
func sameEvent(a, b events.Event) bool {
	return a.ID == b.ID && a.StoredType == b.StoredType && a.Subject == b.Subject && a.Time.Equal(b.Time) &&
		a.Actor == b.Actor && a.AuthVia == b.AuthVia && a.CorrelationID == b.CorrelationID &&
		a.CausationID == b.CausationID && a.Sequence == b.Sequence && bytes.Equal(a.Raw, b.Raw)
}

// samePublicPages fetches each path from both sites and wants the same
// status, ETag and body (less the script nonce, new on every answer). The
// signing key's document is the one without an ETag.
func samePublicPages(t *testing.T, a, b string, paths []string) {
	t.Helper()
	get := func(url string) (int, string, []byte) {
		res, err := pageClient.Get(url)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		defer res.Body.Close()
		var body bytes.Buffer
		body.ReadFrom(res.Body)
		return res.StatusCode, res.Header.Get("ETag"), scriptNonce.ReplaceAll(body.Bytes(), []byte(`nonce=""`))
	}
	for _, p := range paths {
		sa, ea, ba := get(a + p)
		sb, eb, bb := get(b + p)
		switch {
		case sa != http.StatusOK:
			t.Errorf("%s on the source: %d", p, sa)
		case sb != sa || eb != ea:
			t.Errorf("%s: source %d ETag %s, restored %d ETag %s", p, sa, ea, sb, eb)
		case ea == "" && p != bundle.WellKnownPath:
			t.Errorf("%s has no ETag", p)
		case !bytes.Equal(ba, bb):
			t.Errorf("%s: ETag %q on both over different bodies (%d and %d bytes)", p, ea, len(ba), len(bb))
		default:
			t.Logf("%s: ETag %s on both, the same %d bytes", p, ea, len(ba))
		}
	}
}

// pageClient waits for a page of a large ranking that nothing asked for
// before (the first answer renders it).
var pageClient = &http.Client{Timeout: 2 * time.Minute}

var scriptNonce = regexp.MustCompile(`nonce="[^"]*"`)

func readManifest(t *testing.T, dir string) backupManifest {
	t.Helper()
	var m backupManifest
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		t.Fatalf("the backup's manifest: %v", err)
	}
	return m
}

// checkPrivate wants every folder under dir 0700 and every file 0600.
func checkPrivate(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Error(err)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		} else if info.Mode().Type() != 0 {
			return nil // the control socket, the lock
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s is %v, want %v", path, info.Mode().Perm(), want)
		}
		return nil
	})
}

// runCLILong runs a sub-command that may take minutes.
func runCLILong(t *testing.T, limit time.Duration, args ...string) string {
	t.Helper()
	out, err := runCLILongErr(limit, args...)
	if err != nil {
		t.Fatalf("crossrank %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func runCLILongErr(limit time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, args...)
	cmd.Env = childEnv()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// TestBackupHelpTouchesNothing: backup's and restore's help and argument
// errors, and a restore from a folder that is not a backup, open no store
// and create nothing.
func TestBackupHelpTouchesNothing(t *testing.T) {
	t.Parallel()
	bin := crossrankBinary(t)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"backup", "-h"}, {"backup"}, {"backup", "--out", "b", "extra"},
		{"restore", "-h"}, {"restore"}, {"restore", "a", "b"},
		{"restore", "nothing-here", "--data", "new"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = childEnv()
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != 0 && code != 1 && code != 2 {
			t.Errorf("crossrank %s: exit %d\n%s", strings.Join(args, " "), code, out)
		}
		if args[len(args)-1] == "-h" && !strings.Contains(string(out), "usage") && !strings.Contains(string(out), "-out") {
			t.Errorf("crossrank %s prints no help:\n%s", strings.Join(args, " "), out)
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Fatalf("crossrank %s created %s in its working folder", strings.Join(args, " "), entries[0].Name())
		}
	}
	out, _ := exec.Command(bin, "help").CombinedOutput()
	for _, c := range []string{"crossrank backup --out DIR", "crossrank restore DIR --data NEW"} {
		if !strings.Contains(string(out), c) {
			t.Errorf("crossrank help does not mention %q", c)
		}
	}
}
