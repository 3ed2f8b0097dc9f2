//go:build !unix

package main

import (
	"fmt"
	"os"
)

// On systems without flock the data folder is not locked: run one process
// per folder by hand there (Crossrank is deployed on Linux).

type folderLock struct{}

type busyError struct {
	dir    string
	pid    int
	socket string
}

func (e *busyError) Error() string {
	return fmt.Sprintf("a Crossrank server (pid %d) is running on %s", e.pid, e.dir)
}

func lockData(dir string) (*folderLock, error) { return &folderLock{}, os.MkdirAll(dir, 0o700) }
func peekOwner(string) *busyError              { return nil }
func (l *folderLock) record(string) error      { return nil }
func (l *folderLock) release()                 {}
