package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

// TestCLIBesideServer runs every store command of the command line beside
// a live `crossrank serve` on the same data folder while clients write
// through the API. The commands go through the server: what they write is
// live at once (a token works on the next request), every acknowledged
// write is in the stream exactly once, `verify` passes, a rebuild is
// refused with the server's pid, and kill -9 frees the folder.
func TestCLIBesideServer(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	data := t.TempDir()
	tokens := demoTokens(t, "--data", data)
	natsAddr := freeLoopbackAddr(t)
	srv := startServe(t, "serve", data, "--no-demo", "--nats-listen", natsAddr)
	store := []string{"--data", data}

	l := startAPILoad(tokens, 8, uint64(time.Now().UnixNano()), func(int, int) string { return srv.url })
	const users = 4
	var wg sync.WaitGroup
	for i := range users {
		wg.Go(func() {
			name := "cli" + strconv.Itoa(i)
			runCLI(t, append([]string{"user", "add", name, "--role", "reviewer", "--password", "first-password"}, store...)...)
			runCLI(t, append([]string{"user", "grant", name, "editor"}, store...)...)
			runCLI(t, append([]string{"user", "revoke", name, "editor"}, store...)...)
			runCLI(t, append([]string{"user", "passwd", name, "--password", "second-password"}, store...)...)
			token := createToken(t, name, store...)
			// No waiting: the command returned after the server's read
			// models had what it wrote.
			status, body, err := apiGet(context.Background(), srv.url+"/api/v1/audit?limit=1", token)
			if err != nil || status != http.StatusOK {
				t.Errorf("the token %s's CLI created at once: %d %v %s", name, status, err, body)
			}
		})
	}
	wg.Go(func() {
		out := runCLI(t, append([]string{"seed"}, store...)...)
		if !strings.Contains(out, "loaded already") {
			t.Errorf("seed beside the server: %s", out)
		}
	})
	wg.Go(func() {
		site := filepath.Join(t.TempDir(), "site")
		runCLI(t, append([]string{"export", "--out", site}, store...)...)
		if _, err := os.Stat(filepath.Join(site, "index.html")); err != nil {
			t.Errorf("export through the server: %v", err)
		}
	})
	wg.Go(func() {
		if out, err := runCLIErr(t, append([]string{"verify"}, store...)...); err != nil {
			t.Errorf("verify beside the server under load: %v\n%s", err, out)
		}
	})
	wg.Wait()
	l.stop()

	out := runCLI(t, append([]string{"user", "list"}, store...)...)
	for i := range users {
		if !strings.Contains(out, "cli"+strconv.Itoa(i)+" ") {
			t.Errorf("user list beside the server lacks cli%d:\n%s", i, out)
		}
	}
	out, err := runCLIErr(t, append([]string{"rebuild"}, store...)...)
	if err == nil || !strings.Contains(out, "is running on") || !strings.Contains(out, "pid "+strconv.Itoa(srv.cmd.Process.Pid)) {
		t.Errorf("rebuild beside the server: %v\n%s", err, out)
	}
	out, err = runCLIErr(t, "serve", "--data", data, "--addr", "127.0.0.1:0")
	if err == nil || !strings.Contains(out, "already") {
		t.Errorf("a second serve on the folder: %v\n%s", err, out)
	}

	ops := l.snapshot()
	stream := readStream(t, "nats://"+natsAddr, 1)
	rep := checkLedger(t, ops, stream)
	t.Logf("API load beside the commands: %s", rep)
	if rep.AckedFound != rep.Acked {
		t.Fatalf("%d acknowledged API writes lost", rep.Acked-rep.AckedFound)
	}
	registered := map[string]int{}
	for _, ev := range stream {
		if _, ok := ev.Data.(*events.UserRegistered); ok {
			registered[ev.Subject]++
		}
	}
	for i := range users {
		if n := registered["cli"+strconv.Itoa(i)]; n != 1 {
			t.Errorf("cli%d registered %d times in the stream", i, n)
		}
	}
	if out, err := runCLIErr(t, append([]string{"verify"}, store...)...); err != nil {
		t.Errorf("verify beside the server after the load: %v\n%s", err, out)
	}

	// kill -9: the kernel releases the lock, the next process owns the folder.
	srv.kill()
	if out, err := runCLIErr(t, append([]string{"verify"}, store...)...); err != nil || strings.Contains(out, "running") {
		t.Errorf("verify after kill -9 of the server: %v\n%s", err, out)
	}
	srv.restart()
}

// TestCLIHelpTouchesNothing: help and argument errors open no store and
// create no folder.
func TestCLIHelpTouchesNothing(t *testing.T) {
	t.Parallel()
	bin := crossrankBinary(t)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--help"}, {"-h"}, {"help"}, {"version"},
		{"user", "--help"}, {"user", "-h"}, {"user"}, {"user", "frobnicate"}, {"user", "add"},
		{"token", "--help"}, {"token", "create"}, {"token", "create", "a", "b"},
		{"seed", "-h"}, {"seed", "extra"}, {"rebuild", "--help"}, {"verify", "--nope"},
		{"export"}, {"export", "-h"},
		{"ranking"}, {"ranking", "-h"}, {"ranking", "import", "f"}, {"ranking", "export", "x"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = childEnv()
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != 0 && code != 2 {
			t.Errorf("crossrank %s: exit %d\n%s", strings.Join(args, " "), code, out)
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Fatalf("crossrank %s created %s in its working folder", strings.Join(args, " "), entries[0].Name())
		}
		if args[0] == "--help" || args[0] == "-h" {
			for _, c := range []string{"serve", "user add", "user revoke", "user passwd", "token create", "--days", "verify", "export", "version"} {
				if !strings.Contains(string(out), c) {
					t.Errorf("crossrank %s does not mention %q:\n%s", args[0], c, out)
				}
			}
		}
	}
}
