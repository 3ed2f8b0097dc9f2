// Command testexec runs a test binary for `go test -exec` and appends the
// CPU time it and the processes it waited for spent (user and system, from
// wait4's rusage) and its wall time to the file named by
// CROSSRANK_TESTEXEC_LOG, one line a binary: the package directory (go test
// runs a test binary in its package's directory), user, system and wall
// seconds. .ci/testtime reads the lines beside go test's -json output.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: testexec BINARY [ARGS...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testexec:", err)
		os.Exit(1)
	}
	// go test stops a test binary that overruns by signalling what it
	// started: pass the signal on, so the binary prints its goroutines.
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT)
	go func() {
		for s := range sig {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	wall := time.Since(start)
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
		if code < 0 {
			code = 1
		}
	} else if err != nil {
		fmt.Fprintln(os.Stderr, "testexec:", err)
		code = 1
	}
	if log := os.Getenv("CROSSRANK_TESTEXEC_LOG"); log != "" {
		record(log, cmd.ProcessState, wall)
	}
	os.Exit(code)
}

// record appends one line for the binary; a failure to write it is
// reported and does not change the test's outcome.
func record(path string, ps *os.ProcessState, wall time.Duration) {
	dir, err := os.Getwd()
	if err == nil {
		var f *os.File
		if f, err = os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			_, err = fmt.Fprintf(f, "%s\t%.2f\t%.2f\t%.2f\n", dir,
				ps.UserTime().Seconds(), ps.SystemTime().Seconds(), wall.Seconds())
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testexec: record:", err)
	}
}
