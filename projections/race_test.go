//go:build race

package projections_test

// raceEnabled reports whether the race detector is on: the tests that
// only repeat work at full size (a 10,000-entry edition) scale themselves
// down under its cost; CI runs them at full size without it.
const raceEnabled = true
