package main

import (
	"io/fs"
	"os"
	"path/filepath"
)

// openDataFolder makes dir the owner's alone before anything is stored in
// it: the event log, the read models and the captures hold password
// hashes, session and token digests and drafts, which no other local user
// may read, whatever the operator's umask or the mode the folder was
// created with. The process umask becomes 077, so every file created from
// now on (SQLite's -wal and -shm, the read models' rebuilds, nats-server's
// blocks) is the owner's; the folder becomes 0700; and what an earlier
// run left readable by others loses those bits.
//
// The umask is the process's: files written outside the data folder that
// are meant to be public (the exported static site) set their modes
// explicitly.
func openDataFolder(dir string) error {
	restrictUmask()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil // chmod would follow it out of the folder
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode, want := info.Mode().Perm(), info.Mode().Perm()&^0o077
		if d.IsDir() {
			want = 0o700
		}
		if mode == want {
			return nil
		}
		return os.Chmod(path, want)
	})
}
