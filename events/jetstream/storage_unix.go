//go:build unix

package jetstream

import (
	"path/filepath"
	"syscall"
)

// freeBytes returns the bytes free to an unprivileged writer on dir's
// file system.
func freeBytes(dir string) (uint64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Clean(dir), &st); err != nil {
		return 0, false
	}
	return st.Bavail * uint64(st.Bsize), true
}
