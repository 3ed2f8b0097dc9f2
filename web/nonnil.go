package web

import "slices"

// nonNil returns a copy of s that encodes as [] rather than null when empty,
// for the public API's lists.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}
