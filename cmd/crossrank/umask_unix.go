//go:build unix

package main

import "syscall"

// restrictUmask makes every file the process creates from now on readable
// by its owner only.
func restrictUmask() { syscall.Umask(0o077) }
