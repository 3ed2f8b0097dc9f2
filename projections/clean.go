package projections

import (
	"fmt"
	"os"
	"strings"
)

// A read-model file that passed its integrity check and was then closed
// cleanly by this package is marked so (a small file next to it holding its
// size and modification time), and the next Open trusts it without
// reading it whole: SQLite's quick check reads every page, 2 s for the
// read models of a million events, which made `crossrank serve` miss its
// start-up budget on every restart. Any change to the file since — a
// write by another process, a truncation, garbage — changes its size or
// time; a crash leaves no mark (Open removes it) or a write-ahead log
// behind; either way the full check runs.

func cleanMarkPath(path string) string { return path + ".clean" }

// fileStamp describes the file at path as the mark records it.
func fileStamp(path string) (string, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("%d %d", fi.Size(), fi.ModTime().UnixNano()), true
}

// takeCleanMark reports whether path is as a clean Close left it, and
// removes the mark: the file is about to be opened for writing.
func takeCleanMark(path string) bool {
	mark, err := os.ReadFile(cleanMarkPath(path))
	if err != nil {
		return false
	}
	os.Remove(cleanMarkPath(path))
	stamp, ok := fileStamp(path)
	if !ok || strings.TrimSpace(string(mark)) != stamp {
		return false
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return false
	}
	return true
}

// putCleanMark marks path as checked and closed cleanly.
func putCleanMark(path string) {
	if stamp, ok := fileStamp(path); ok {
		_ = os.WriteFile(cleanMarkPath(path), []byte(stamp+"\n"), 0o644)
	}
}
