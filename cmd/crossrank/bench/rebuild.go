package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/crossrank/crossrank/projections"
	"github.com/nats-io/nats.go"
)

// rebuildResult is one run of the rebuild benchmark.
type rebuildResult struct {
	rate, raw   float64 // events/s: rebuild into all read models; raw ordered-consumer replay
	hwm, maxRSS float64 // MiB: the child's VmHWM (polled) and its rusage peak RSS
}

// measureRebuild times a raw replay of the stream in this process, then
// `crossrank rebuild` in a child process (its own figure, from its output,
// and its peak memory), then the raw replay again; the faster raw replay is
// the reference, so a slow moment of the machine never flatters the ratio.
func measureRebuild(ctx context.Context, o *options, dir string, last uint64) (rebuildResult, error) {
	var res rebuildResult
	first, err := rawReplay(ctx, dir, last)
	if err != nil {
		return res, err
	}
	out, hwm, maxRSS, err := runChild(ctx, o, "rebuild", "--data", dir)
	if err != nil {
		return res, fmt.Errorf("crossrank rebuild: %w\n%s", err, out)
	}
	m := regexp.MustCompile(`: (\d+) events in ([0-9.]+)s`).FindStringSubmatch(out)
	if m == nil {
		return res, fmt.Errorf("crossrank rebuild printed %q", out)
	}
	n, _ := strconv.ParseUint(m[1], 10, 64)
	secs, _ := strconv.ParseFloat(m[2], 64)
	if n != last || secs <= 0 {
		return res, fmt.Errorf("crossrank rebuild: %d events in %.2fs, want %d", n, secs, last)
	}
	second, err := rawReplay(ctx, dir, last)
	if err != nil {
		return res, err
	}
	res.rate = float64(n) / secs
	res.raw = float64(last) / min(first, second).Seconds()
	res.hwm, res.maxRSS = hwm, maxRSS
	if o.profile != "" {
		// The child cannot be profiled from here: rebuild once more in this
		// process, under the profiler, into a scratch file.
		if err := o.profiled("rebuild", func() error { return profileRebuild(ctx, o, dir) }); err != nil {
			return res, err
		}
	}
	o.logf("  rebuild %d events in %.2fs (%.0f/s), raw replay %v / %v, VmHWM %.0f MiB, ru_maxrss %.0f MiB",
		n, secs, res.rate, first.Round(time.Millisecond), second.Round(time.Millisecond), hwm, maxRSS)
	return res, nil
}

func profileRebuild(ctx context.Context, o *options, dir string) error {
	b, err := openDataStore(ctx, dir, true)
	if err != nil {
		return err
	}
	defer b.close()
	path := filepath.Join(o.scratch, "profiled-rebuild.db")
	defer os.Remove(path)
	st, err := projections.Rebuild(ctx, b.events, path)
	o.logf("  profiled in-process rebuild: %d events in %.2fs", st.Events, st.Duration.Seconds())
	return err
}

// rawReplay reads the whole stream of dir through an ordered consumer
// without decoding (RawReplay), on the production embedded server.
func rawReplay(ctx context.Context, dir string, last uint64) (time.Duration, error) {
	b, err := openDataStore(ctx, dir, true)
	if err != nil {
		return 0, err
	}
	defer b.close()
	var got uint64
	start := time.Now()
	err = b.events.RawReplay(ctx, 1, func(uint64, string, nats.Header, []byte) error { got++; return nil })
	d := time.Since(start)
	if err == nil && got != last {
		err = fmt.Errorf("raw replay: %d events, want %d", got, last)
	}
	return d, err
}

// runChild runs this program with args and returns its output (stdout, then
// stderr) and its peak resident memory in MiB, twice: VmHWM, the kernel's
// high-water mark of the child's own memory, read from /proc/<pid>/status
// every 10 ms while it runs (it only grows, so the last read is the peak up
// to 10 ms before the end); and ru_maxrss from wait4, which is no use here:
// the kernel carries into it the high-water mark of the memory the child
// had before exec, and Go starts children with vfork, sharing this
// process's memory until then.
func runChild(ctx context.Context, o *options, args ...string) (string, float64, float64, error) {
	cmd := exec.CommandContext(ctx, o.exe, args...)
	cmd.Env = childEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return "", 0, 0, err
	}
	var hwm atomic.Int64
	done := make(chan struct{})
	go func() {
		status := filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "status")
		for {
			if kb := vmHWM(status); kb > hwm.Load() {
				hwm.Store(kb)
			}
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	var maxRSS float64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		maxRSS = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	return stdout.String() + stderr.String(), float64(hwm.Load()) / 1024, maxRSS, err
}

// vmHWM reads the peak resident set size (KiB) from a /proc status file.
func vmHWM(path string) int64 { return statusField(path, "VmHWM") }

// procStatus is a kB field of this process's /proc/self/status.
func procStatus(field string) int64 { return statusField("/proc/self/status", field) }

// statusField is the kB field of a /proc/<pid>/status file at path; 0 when
// it cannot be read.
func statusField(path, field string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb
		}
	}
	return 0
}

// childEnv is this environment without Crossrank's settings, so a child
// sees only the flags the benchmark gives it (no external NATS, no demo).
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CROSSRANK_") {
			env = append(env, kv)
		}
	}
	return env
}
