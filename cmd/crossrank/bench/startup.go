package bench

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// startupResult is one start of `crossrank serve`.
type startupResult struct {
	ready   time.Duration // exec to the first 200 from /readyz
	serving time.Duration // exec to the "crossrank serving" log line
}

// measureStartup execs `crossrank serve --no-demo` on dir, whose read models
// are at the end of the stream, and polls /readyz every 5 ms until it
// answers 200; then stops the server with SIGTERM.
func measureStartup(ctx context.Context, o *options, dir string) (startupResult, error) {
	var res startupResult
	addr, err := freeAddr()
	if err != nil {
		return res, err
	}
	cmd := exec.CommandContext(ctx, o.exe, "serve", "--no-demo", "--data", dir, "--addr", addr)
	cmd.Env = childEnv()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return res, err
	}
	var serving atomic.Int64
	var lines []string
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return res, err
	}
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "crossrank serving") && serving.Load() == 0 {
				serving.Store(int64(time.Since(start)))
			}
			if len(lines) < 50 {
				lines = append(lines, sc.Text())
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { <-scanned; exited <- cmd.Wait() }()
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := client.Get("http://" + addr + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				res.ready = time.Since(start)
				break
			}
		}
		select {
		case err := <-exited:
			return res, fmt.Errorf("crossrank serve exited before ready: %v\n%s", err, strings.Join(lines, "\n"))
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-exited
			return res, fmt.Errorf("crossrank serve not ready after 2 minutes\n%s", strings.Join(lines, "\n"))
		}
	}
	res.serving = time.Duration(serving.Load())
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-exited
	}
	o.logf("  serve: ready after %v (serving logged after %v)", res.ready.Round(time.Millisecond), res.serving.Round(time.Millisecond))
	return res, nil
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
