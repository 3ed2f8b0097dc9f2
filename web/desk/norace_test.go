//go:build !race

package desk_test

const raceEnabled = false
