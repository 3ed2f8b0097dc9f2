//go:build !unix

package jetstream

// freeBytes is unknown here: only a stream's write error tells.
func freeBytes(string) (uint64, bool) { return 0, false }
