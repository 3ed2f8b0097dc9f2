//go:build linux

package web

import "golang.org/x/sys/unix"

// pubExchangeDirs swaps two folders in one atomic step (renameat2 with
// RENAME_EXCHANGE): at no moment is either path missing.
func pubExchangeDirs(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
