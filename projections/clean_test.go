package projections

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCleanMark: a checked file closed cleanly is trusted on the next
// open, once; a file changed since, or never checked, is checked again.
func TestCleanMark(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "read.db")
	open := func() *Store {
		t.Helper()
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(cleanMarkPath(path)); !os.IsNotExist(err) {
			t.Errorf("the mark outlived Open: %v", err)
		}
		return s
	}
	marked := func() bool { _, err := os.Stat(cleanMarkPath(path)); return err == nil }

	s := open()
	if s.clean {
		t.Error("a new file counts as clean")
	}
	s.Close()
	if marked() {
		t.Error("a file never checked was marked")
	}
	s = open()
	if err := s.Integrity(ctx); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if !marked() {
		t.Fatal("a checked file closed cleanly was not marked")
	}
	s = open()
	if !s.clean {
		t.Error("an untouched file marked clean is not trusted")
	}
	s.Integrity(ctx)
	s.Close()

	// Touched since the clean close: checked again.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	s = open()
	if s.clean {
		t.Error("a file changed since its clean close is trusted")
	}
	s.Close()
	if marked() {
		t.Error("a file opened without its check was marked")
	}
}
