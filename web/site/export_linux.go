//go:build linux

package site

import "golang.org/x/sys/unix"

// exchangeDirs swaps two folders in one atomic step (renameat2 with
// RENAME_EXCHANGE): at no moment is either path missing.
func exchangeDirs(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
