//go:build race

package bundle_test

// raceEnabled reports whether the race detector is on: the test at
// 10,000 entries scales itself down under its cost.
const raceEnabled = true
