package projections_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/projections"
)

// TestWaitFor: read-your-writes. WaitFor returns once the sequence a
// command returned is applied (and the row is there to read), returns at
// once for a sequence already applied, and gives up with ErrWaitTimeout
// when the context ends first.
func TestWaitFor(t *testing.T) {
	t.Parallel()
	d := startLiveDesk(t, filepath.Join(t.TempDir(), "read.db"))
	ctx := testContext(t)
	hash, _ := fakeHash("")
	register := func(name string) handler.Result {
		t.Helper()
		return do(t, "register "+name)(d.h.RegisterUser(ctx, domain.System(),
			domain.RegisterUser{CommandID: "reg-" + name, Username: name, PasswordHash: hash, Roles: []string{domain.RoleEditor}}))
	}

	res := register("alice")
	if err := d.ps.WaitFor(ctx, res.Sequence); err != nil {
		t.Fatalf("WaitFor(%d): %v", res.Sequence, err)
	}
	mustCount(t, d.ps, 1, "SELECT count(*) FROM users WHERE username='alice'")
	if err := d.ps.WaitFor(ctx, 1); err != nil {
		t.Errorf("WaitFor an old sequence: %v", err)
	}

	// A sequence nobody has written yet: the context's deadline wins.
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := d.ps.WaitFor(short, res.Sequence+1)
	if !errors.Is(err, projections.ErrWaitTimeout) {
		t.Fatalf("WaitFor a future sequence: %v, want ErrWaitTimeout", err)
	}
	if took := time.Since(start); took < 90*time.Millisecond || took > 3*time.Second {
		t.Errorf("WaitFor gave up after %v, want about the context's 100ms", took)
	}

	// A waiter blocked on the next sequence wakes when it is applied.
	woke := make(chan error, 1)
	go func() { woke <- d.ps.WaitFor(ctx, res.Sequence+1) }()
	select {
	case err := <-woke:
		t.Fatalf("WaitFor returned %v before the event existed", err)
	case <-time.After(50 * time.Millisecond):
	}
	next := register("bob")
	select {
	case err := <-woke:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("WaitFor did not wake when the event was applied")
	}
	if next.Sequence != res.Sequence+1 {
		t.Fatalf("bob registered at %d, want %d", next.Sequence, res.Sequence+1)
	}
	mustCount(t, d.ps, 1, "SELECT count(*) FROM users WHERE username='bob'")

	// Without a runner nothing is applied: WaitFor times out, Apply wakes it.
	idle := open(t, filepath.Join(t.TempDir(), "idle.db"))
	short2, cancel2 := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel2()
	if err := idle.WaitFor(short2, 1); !errors.Is(err, projections.ErrWaitTimeout) {
		t.Fatalf("idle WaitFor: %v, want ErrWaitTimeout", err)
	}
	go func() { woke <- idle.WaitFor(ctx, 2) }()
	applyInBatches(t, idle, replayAll(t, d.env.Store)[:2], 1)
	if err := <-woke; err != nil {
		t.Fatal(err)
	}
}
