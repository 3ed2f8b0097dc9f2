package domain

import (
	"maps"
	"testing"
)

// TestMoveWeight: a weight moved by ±5 with the others renormalised to
// keep 100, in proportion and by largest remainder; impossible moves are
// refused.
func TestMoveWeight(t *testing.T) {
	w := map[string]int{"a": 40, "b": 35, "c": 25}
	names := []string{"a", "b", "c"}
	for _, tt := range []struct {
		c    string
		d    int
		want map[string]int
	}{
		{"a", 5, map[string]int{"a": 45, "b": 32, "c": 23}}, // 55·35/60 = 32.08, 55·25/60 = 22.9 → +1 to c
		{"a", -5, map[string]int{"a": 35, "b": 38, "c": 27}},
		{"c", 5, map[string]int{"a": 37, "b": 33, "c": 30}},
	} {
		got, ok := moveWeight(w, names, tt.c, tt.d)
		sum := 0
		for _, v := range got {
			sum += v
		}
		if !ok || !maps.Equal(got, tt.want) || sum != 100 {
			t.Errorf("move %s by %d = %v (%v), want %v", tt.c, tt.d, got, ok, tt.want)
		}
	}
	if _, ok := moveWeight(map[string]int{"a": 100}, []string{"a"}, "a", -5); ok {
		t.Error("a single criterion's weight moved")
	}
	if _, ok := moveWeight(map[string]int{"a": 0, "b": 100}, []string{"a", "b"}, "a", -5); ok {
		t.Error("a weight moved below 0")
	}
}
