//go:build race

package web

// raceEnabled reports whether the race detector is on: tests that only
// repeat work scale themselves down under its cost.
const raceEnabled = true
