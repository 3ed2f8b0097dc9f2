package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFaultDiskFull fills the disk under a standalone server's event store
// and frees it again (issue 45 item 2). The store lives on a small tmpfs
// of its own, mounted in a user and mount namespace (unshare -rm) that the
// child runs in; the test reaches it through /proc/PID/root. While the
// disk is full, writes answer 507 problem+json naming the disk and /readyz
// 503 saying so; once the filler is removed, writes succeed again without a
// restart, /readyz turns 200, and `crossrank verify` passes.
func TestFaultDiskFull(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	if out, err := exec.Command("unshare", "-rm", "true").CombinedOutput(); err != nil {
		t.Skipf("mounts a small tmpfs in a user and mount namespace, which `unshare -rm` cannot make here: %v %s", err, out)
	}
	data := t.TempDir()
	tokens := demoTokens(t, "--data", data)
	if out, err := exec.Command("cp", "-a", filepath.Join(data, "nats"), filepath.Join(data, "nats-src")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	used := int64(0)
	filepath.WalkDir(filepath.Join(data, "nats-src"), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				used += fi.Size()
			}
		}
		return nil
	})
	sizeMiB := used>>20 + 16
	script := fmt.Sprintf(`mount -t tmpfs -o size=%dm crossrank-disk "$0/nats" && cp -a "$0/nats-src/." "$0/nats/" && exec "$@"`, sizeMiB)
	p := &serveProc{t: t, name: "serve", data: data, args: []string{"--no-demo"}, wrap: []string{"unshare", "-rm", "sh", "-c", script, data}}
	p.start()
	disk := fmt.Sprintf("/proc/%d/root%s", p.cmd.Process.Pid, filepath.Join(data, "nats"))
	t.Logf("the store (%d KiB) on a %d MiB tmpfs", used>>10, sizeMiB)

	ctx := context.Background()
	editor := tokens["editor"]
	if o := probeWrite(ctx, p.url, editor); !o.acked() {
		t.Fatalf("a write before the disk filled: %d %+v %v", o.Status, o.Problem, o.Err)
	}
	filler := filepath.Join(disk, "filler")
	filled := fill(t, filler)
	t.Logf("filled the disk with %d MiB", filled>>20)

	// The stream's open block may take a few more; then a write fails.
	var refused *apiOp
	acked := 0
	for i := 0; i < 100 && refused == nil; i++ {
		if o := probeWrite(ctx, p.url, editor); o.acked() {
			acked++
		} else {
			refused = o
		}
	}
	if refused == nil {
		t.Fatalf("100 writes succeeded on a full disk")
	}
	t.Logf("after %d more writes: %d %q %q (Retry-After %s) in %s", acked, refused.Status, refused.Problem.Title,
		refused.Problem.Detail, refused.Retry, refused.Took.Round(time.Millisecond))
	checkFull := func(what string, o *apiOp) {
		t.Helper()
		if o.Status != http.StatusInsufficientStorage || o.Problem.Type != "urn:crossrank:problem:insufficient-storage" ||
			!strings.Contains(o.Problem.Detail, filepath.Join(data, "nats")) || o.Retry == "" {
			t.Errorf("%s on a full disk: %d %+v Retry-After %q %v; want 507 naming the disk", what, o.Status, o.Problem, o.Retry, o.Err)
		}
	}
	checkFull("a write", refused)
	status, body := p.readyz()
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "is full") || !strings.Contains(body, filepath.Join(data, "nats")) {
		t.Errorf("/readyz on a full disk: %d %q; want 503 naming the full disk", status, body)
	} else {
		t.Logf("/readyz: %d %q", status, body)
	}
	again := probeWrite(ctx, p.url, editor)
	checkFull("the next write", again)
	t.Logf("the next write refused in %s", again.Took.Round(time.Millisecond))

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	back := waitUntil(t, "a write to succeed after the disk was freed", 60*time.Second, func() bool {
		return probeWrite(ctx, p.url, editor).acked()
	})
	ready := p.waitReady(30 * time.Second)
	t.Logf("disk freed: writes succeed after %s, /readyz 200 after %s more; JetStream restarted: %v",
		back.Round(time.Millisecond), ready.Round(time.Millisecond), p.log.contains("restarting JetStream"))
	if out, err := runCLIErr(t, "verify", "--data", data); err != nil {
		t.Errorf("crossrank verify beside the server: %v\n%s", err, out)
	} else {
		t.Logf("%s", lastLine(out))
	}
	p.stop()
}

// fill writes to path until the disk is full and returns how much it wrote.
func fill(t *testing.T, path string) int64 {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 1<<20)
	var n int64
	for {
		w, err := f.Write(chunk)
		n += int64(w)
		if errors.Is(err, syscall.ENOSPC) {
			return n
		}
		if err != nil {
			t.Fatalf("fill %s: %v", path, err)
		}
	}
}
