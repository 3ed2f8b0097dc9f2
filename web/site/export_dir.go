package site

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// swapDir puts the folder tmp at dir: a plain rename when dir does not
// exist, else an atomic exchange (see exchangeDirs), after which the old
// site, now at tmp, is removed.
func swapDir(tmp, dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		return os.Rename(tmp, dir)
	}
	if err := exchangeDirs(tmp, dir); err != nil {
		return fmt.Errorf("export: swap %s into place: %w", dir, err)
	}
	return os.RemoveAll(tmp)
}

// removeLeftovers deletes sibling folders an interrupted export left.
func removeLeftovers(dir string) {
	for _, pattern := range []string{dir + ".tmp-*", dir + ".old-*"} {
		matches, _ := filepath.Glob(pattern)
		for _, m := range matches {
			os.RemoveAll(m)
		}
	}
}

func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		_ = f.Sync()
		f.Close()
	}
}

func randomSuffix() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// publicModes makes the export under root readable by all (folders 0755,
// files 0644) whatever the process umask: serve runs with umask 077 to
// keep its data folder private, and the exported site is meant for a web
// server that may run as another user.
func publicModes(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		want := fs.FileMode(0o644)
		if d.IsDir() {
			want = 0o755
		}
		info, err := d.Info()
		if err != nil || info.Mode().Perm() == want {
			return err
		}
		return os.Chmod(path, want)
	})
}
