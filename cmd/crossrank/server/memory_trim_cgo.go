//go:build linux && cgo

package server

/*
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
static void crossrank_trim(void) { malloc_trim(0); }
#else
static void crossrank_trim(void) {}
#endif
*/
import "C"

// trimCHeap gives the C allocator's free pages back to the system
// (glibc's malloc_trim): SQLite's page caches and statements live there,
// and glibc keeps a freed connection's pages in its arenas otherwise.
func trimCHeap() { C.crossrank_trim() }
