//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockFile is the file in a data folder whose exclusive flock marks the
// folder's owner: the one process running the embedded NATS server on it.
// The kernel releases the lock when that process ends, kill -9 included, so
// a stale LOCK file never keeps anyone out.
const lockFile = "LOCK"

// folderLock is a held lock on a data folder.
type folderLock struct{ f *os.File }

// busyError reports a data folder owned by another running process.
type busyError struct {
	dir    string
	pid    int
	socket string // its control socket, "" while it is starting
}

func (e *busyError) Error() string {
	return fmt.Sprintf("a Crossrank server (pid %d) is running on %s", e.pid, e.dir)
}

// lockData takes the exclusive lock on dir, creating dir if needed. When
// another process holds it, it returns a *busyError naming that process and
// its control socket, as written in the LOCK file.
func lockData(dir string) (*folderLock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("lock %s: %w", f.Name(), err)
		}
		return nil, readOwner(dir, f)
	}
	l := &folderLock{f: f}
	if err := l.record(""); err != nil {
		l.release()
		return nil, err
	}
	return l, nil
}

// peekOwner reports the process holding dir's lock, without creating
// anything: nil when the folder is free (or does not exist).
func peekOwner(dir string) *busyError {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return nil
	}
	return readOwner(dir, f)
}

// readOwner reads the owner's pid and socket from a held LOCK file.
func readOwner(dir string, f *os.File) *busyError {
	b := make([]byte, 4096)
	n, _ := f.ReadAt(b, 0)
	lines := strings.Split(string(b[:n]), "\n")
	be := &busyError{dir: dir}
	if len(lines) > 0 {
		be.pid, _ = strconv.Atoi(strings.TrimSpace(lines[0]))
	}
	if len(lines) > 1 {
		be.socket = strings.TrimSpace(lines[1])
	}
	return be
}

// record writes the owner's pid and, once it listens, its control socket.
// Readers take whatever is there: the pid line is written first and never
// changes while the lock is held.
func (l *folderLock) record(socket string) error {
	b := []byte(fmt.Sprintf("%d\n%s\n", os.Getpid(), socket))
	if _, err := l.f.WriteAt(b, 0); err != nil {
		return err
	}
	return l.f.Truncate(int64(len(b)))
}

func (l *folderLock) release() {
	if l == nil || l.f == nil {
		return
	}
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
	l.f = nil
}
