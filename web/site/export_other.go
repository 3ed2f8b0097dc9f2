//go:build !linux

package site

import "os"

// exchangeDirs swaps two folders with two renames: without Linux's
// RENAME_EXCHANGE, b is missing for the moment between them.
func exchangeDirs(a, b string) error {
	old := b + ".old-" + randomSuffix()
	if err := os.Rename(b, old); err != nil {
		return err
	}
	if err := os.Rename(a, b); err != nil {
		_ = os.Rename(old, b)
		return err
	}
	return os.Rename(old, a)
}
