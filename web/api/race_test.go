//go:build race

package api_test

// raceEnabled reports whether the race detector is on: tests that only
// repeat work scale themselves down under its cost (CI runs them at full
// size without it too).
const raceEnabled = true
