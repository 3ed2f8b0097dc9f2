package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// The tests here run in parallel (go test's -parallel, the number of
// cores, at a time): most of their time is spent waiting on child
// processes, NATS and SQLite, each on its own data directory and ports.
// Two stay sequential: TestServeExportsAndPostsOnPublish sets an
// environment variable and TestDataFolderIsPrivate the process's umask.

// binDir holds the crossrank binary the process tests run, built once per
// test run and removed when the run ends.
var binDir string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "crossrank-test-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// crossrankBinary returns the path of the crossrank binary, building it on
// first use. It is built without -race, whatever the tests run with: the
// child processes are the system under test, not the code being checked for
// races, and must run at production speed for the timings to mean anything.
// Process tests are skipped under -short.
func crossrankBinary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts crossrank processes; skipped under -short")
	}
	buildOnce.Do(func() {
		start := time.Now()
		defer func() {
			t.Logf("built the crossrank binary (without -race) in %s", time.Since(start).Round(time.Millisecond))
		}()
		out := filepath.Join(binDir, "crossrank")
		cmd := exec.Command("go", "build", "-o", out, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		if b, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, b)
			return
		}
		binPath = out
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}
