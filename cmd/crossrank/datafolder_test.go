//go:build unix

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestDataFolderIsPrivate starts a real server on a data folder that
// already exists with mode 0755 and holds a file others may read, under
// the usual umask 022: after the start and a clean stop, every folder
// under it is 0700 and no file is readable by group or others (read.db,
// -wal, -shm, nats-server's store, the LOCK). The site it exports stays
// readable by all: it is meant for a web server.
func TestDataFolderIsPrivate(t *testing.T) {
	crossrankBinary(t)
	old := syscall.Umask(0o022) // the children inherit it
	t.Cleanup(func() { syscall.Umask(old) })
	data := filepath.Join(t.TempDir(), "data")
	site := filepath.Join(t.TempDir(), "site")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "left-by-hand.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startServe(t, "serve", data, "--site-dir", site, "--no-capture")
	index := filepath.Join(site, "en", "r", "gpu-cloud", "index.html")
	for deadline := time.Now().Add(60 * time.Second); ; {
		if _, err := os.Stat(index); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no exported site at %s:\n%s", index, p.log.tail(40))
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.stop()

	seen := map[string]bool{}
	err := filepath.WalkDir(data, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(data, path)
		seen[filepath.Base(path)] = true
		perm := info.Mode().Perm()
		switch {
		case d.IsDir() && perm != 0o700:
			t.Errorf("folder %s is %#o, want 0700", rel, perm)
		case !d.IsDir() && perm&0o077 != 0:
			t.Errorf("file %s is %#o, want no access for group or others", rel, perm)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"read.db", "LOCK", "nats"} {
		if !seen[name] {
			t.Errorf("no %s under the data folder: the test looked at the wrong place", name)
		}
	}
	for _, path := range []string{filepath.Dir(index), index} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if perm := info.Mode().Perm(); perm&0o044 != 0o044 {
			t.Errorf("exported %s is %#o, want readable by all", path, perm)
		}
	}
}
