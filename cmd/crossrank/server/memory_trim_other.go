//go:build !linux || !cgo

package server

// trimCHeap does nothing where glibc's malloc_trim is not known to exist.
func trimCHeap() {}
