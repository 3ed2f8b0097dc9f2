//go:build !unix

package main

// restrictUmask does nothing where there is no umask; the data folder's
// permissions are the operator's to set there.
func restrictUmask() {}
