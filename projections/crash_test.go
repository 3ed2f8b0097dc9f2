package projections_test

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
)

// TestMain lets the test binary double as the projection process that
// TestKilledProcessResumes kills.
func TestMain(m *testing.M) {
	if os.Getenv(childNATS) != "" {
		os.Exit(applyChild(os.Getenv(childNATS), os.Getenv(childDB)))
	}
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		projections.SmallTransactions()
	}
	os.Exit(m.Run())
}

const (
	childNATS  = "CROSSRANK_PROJECTIONS_CHILD_NATS"
	childDB    = "CROSSRANK_PROJECTIONS_CHILD_DB"
	childBatch = 10
)

// applyChild replays the stream over TCP from the checkpoint of the models
// at path and applies it in small batches, printing each committed
// sequence, until the end of the stream or until it is killed.
func applyChild(url, path string) int {
	ctx := context.Background()
	nc, err := jetstream.Connect(url, "projection-child")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	js, err := jetstream.Open(ctx, nc, jetstream.Config{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	s, err := projections.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	from, _ := s.Checkpoint()
	var batch []events.Event
	err = js.Replay(ctx, from+1, func(ev events.Event) error {
		if batch = append(batch, ev); len(batch) < childBatch {
			return nil
		}
		if err := s.Apply(ctx, batch); err != nil {
			return err
		}
		batch = batch[:0]
		_, err := fmt.Printf("applied %d\n", ev.Sequence)
		return err
	})
	if err == nil {
		err = s.Apply(ctx, batch)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestCrashBetweenBatches: a batch that fails halfway keeps nothing, and
// models reopened after their process went away (never closed) resume from
// their checkpoint: every event is applied exactly once.
func TestCrashBetweenBatches(t *testing.T) {
	t.Parallel()
	env := synthetic(t, 600)
	evs := replayAll(t, env.Store)
	last := uint64(len(evs))
	ctx := testContext(t)
	path := filepath.Join(t.TempDir(), "read.db")

	crashed, err := projections.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { crashed.Close() })
	applyInBatches(t, crashed, evs[:300], 60)
	before := dump(t, crashed)

	// A batch whose 21st event cannot be projected rolls back whole.
	bad := evs[320]
	bad.Type, bad.StoredType, bad.Data = "crossrank.proposal.bogus.v1", "crossrank.proposal.bogus.v1", &struct{}{}
	batch := append(append(evs[300:320:320], bad), evs[321:350]...)
	err = crashed.Apply(ctx, batch)
	if !errors.Is(err, events.ErrUnknownType) || !namesSeq(err, 321) {
		t.Fatalf("applying a batch with an unknown event: %v, want ErrUnknownType naming seq 321", err)
	}
	if got := dump(t, crashed); got != before {
		t.Fatalf("a failed batch left rows behind: %s", diff(before, got))
	}
	if seq, _ := crashed.Checkpoint(); seq != 300 {
		t.Fatalf("checkpoint %d after a failed batch, want 300", seq)
	}

	// The process "dies" here: crashed is never closed or used again. The
	// next one opens the same file and tails the stream from the checkpoint.
	s := open(t, path)
	if seq, _ := s.Checkpoint(); seq != 300 {
		t.Fatalf("reopened at %d, want 300", seq)
	}
	runToEnd(t, s, env.Store, last)
	checkExactlyOnce(t, s, last)
	if got, want := dump(t, s), rebuilt(t, env.Store); got != want {
		t.Fatalf("resumed models differ from a clean rebuild: %s", diff(want, got))
	}
	if _, err := projections.Verify(ctx, env.Store, s.DB()); err != nil {
		t.Fatal(err)
	}
}

// TestTwoWritersOnOneFile: a second Store on the same file (a second
// process) moves the checkpoint behind the first one's back; the first
// reads it again in its transaction and applies only what is new.
func TestTwoWritersOnOneFile(t *testing.T) {
	t.Parallel()
	env := synthetic(t, 300)
	evs := replayAll(t, env.Store)
	path := filepath.Join(t.TempDir(), "read.db")
	a, b := open(t, path), open(t, path)
	applyInBatches(t, a, evs[:100], 50)
	applyInBatches(t, b, evs[:180], 40) // b skips what a applied
	applyInBatches(t, a, evs[:250], 30) // a's own checkpoint says 100
	applyInBatches(t, b, evs, 70)
	checkExactlyOnce(t, a, uint64(len(evs)))
	if got, want := dump(t, a), rebuilt(t, env.Store); got != want {
		t.Fatalf("two writers: %s", diff(want, got))
	}
}

// TestKilledProcessResumes: a real projection process is killed (SIGKILL)
// while it applies batches, three times; each time the file holds a
// consistent checkpoint, and the last process finishes the stream with
// every event applied exactly once.
func TestKilledProcessResumes(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	srv, err := jetstream.StartEmbedded(jetstream.EmbeddedOptions{Dir: dir, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	nc, err := srv.Connect("test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ctx := testContext(t)
	js, err := jetstream.Open(ctx, nc, jetstream.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := history.Generate(ctx, js, 600, 11); err != nil {
		t.Fatal(err)
	}
	last, err := js.LastSequence(ctx)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "read.db")

	var seen uint64
	for round := 1; round <= 3; round++ {
		reported := killAfter(t, srv.ClientURL(), path, 3*round)
		s, err := projections.Open(path)
		if err != nil {
			t.Fatalf("round %d: reopen after SIGKILL: %v", round, err)
		}
		seq, _ := s.Checkpoint()
		if seq < reported || seq <= seen || seq >= last {
			t.Fatalf("round %d: checkpoint %d; the child reported %d, the last round left %d, the stream ends at %d",
				round, seq, reported, seen, last)
		}
		checkExactlyOnce(t, s, seq)
		s.Close()
		t.Logf("round %d: killed after sequence %d (reported %d)", round, seq, reported)
		seen = seq
	}

	s := open(t, path)
	runToEnd(t, s, js, last)
	checkExactlyOnce(t, s, last)
	if got, want := dump(t, s), rebuilt(t, js); got != want {
		t.Fatalf("models finished after three kills differ from a clean rebuild: %s", diff(want, got))
	}
}

// killAfter starts the child on path, lets it commit n batches, kills it
// with SIGKILL and returns the last sequence it reported.
func killAfter(t *testing.T, url, path string, n int) uint64 {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childNATS+"="+url, childDB+"="+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var reported uint64
	lines := bufio.NewScanner(out)
	for i := 0; i < n && lines.Scan(); i++ {
		fmt.Sscanf(lines.Text(), "applied %d", &reported)
	}
	// Later rounds let the child run on a little: the kill may then land in
	// the middle of a transaction rather than between two.
	time.Sleep(time.Duration(n/3-1) * 2 * time.Millisecond)
	cmd.Process.Kill() // SIGKILL: no deferred function runs, nothing is closed
	cmd.Wait()
	if reported == 0 {
		t.Fatalf("the child reported nothing before it was killed; stderr: %s", stderr.String())
	}
	return reported
}

// runToEnd tails src with Run until the checkpoint reaches last.
func runToEnd(t *testing.T, s *projections.Store, src projections.Tailer, last uint64) {
	t.Helper()
	ctx, cancel := context.WithCancel(testContext(t))
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := s.Run(ctx, src, nil); err != nil {
			t.Errorf("run: %v", err)
		}
	})
	defer wg.Wait()
	defer cancel()
	waitApplied(t, s, last)
}

// waitApplied waits up to a minute until s has applied seq (WaitFor alone
// gives up after 5 seconds, and a long replay under -race takes longer).
func waitApplied(t *testing.T, s *projections.Store, seq uint64) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; {
		err := s.WaitFor(testContext(t), seq)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			at, _ := s.Checkpoint()
			t.Fatalf("read models stuck at %d, waiting for %d: %v", at, seq, err)
		}
	}
}

// checkExactlyOnce checks that the models hold one audit row for each
// sequence 1…seq and that the checkpoint is seq.
func checkExactlyOnce(t *testing.T, s *projections.Store, seq uint64) {
	t.Helper()
	var n, lo, hi uint64
	if err := s.DB().QueryRow("SELECT count(*), coalesce(min(seq), 0), coalesce(max(seq), 0) FROM audit").Scan(&n, &lo, &hi); err != nil {
		t.Fatal(err)
	}
	var cp uint64
	var head, lastHash string
	s.DB().QueryRow("SELECT seq, audit_head FROM checkpoint").Scan(&cp, &head)
	s.DB().QueryRow("SELECT hash FROM audit WHERE seq=?", seq).Scan(&lastHash)
	if n != seq || lo != 1 || hi != seq || cp != seq || head != lastHash {
		t.Fatalf("audit rows: %d from %d to %d, checkpoint %d (head %.8s, last row %.8s); want %d rows 1…%d and the checkpoint there",
			n, lo, hi, cp, head, lastHash, seq, seq)
	}
}
