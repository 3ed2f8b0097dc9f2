package projections

import (
	"bytes"
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// sameValue reports whether two column values are the same value of the
// same type.
func sameValue(a, b any) bool {
	ab, aBytes := a.([]byte)
	bb, bBytes := b.([]byte)
	if aBytes || bBytes {
		return aBytes && bBytes && bytes.Equal(ab, bb)
	}
	return a == b
}

// compareValues orders two column values as SQLite does with the BINARY
// collation: NULL, then numbers, then text, then blobs.
func compareValues(a, b any) int {
	if c := cmp.Compare(typeRank(a), typeRank(b)); c != 0 {
		return c
	}
	switch x := a.(type) {
	case int64:
		if y, ok := b.(int64); ok {
			return cmp.Compare(x, y)
		}
		return cmp.Compare(float64(x), b.(float64))
	case float64:
		if y, ok := b.(int64); ok {
			return cmp.Compare(x, float64(y))
		}
		return cmp.Compare(x, b.(float64))
	case string:
		return strings.Compare(x, b.(string))
	case []byte:
		return bytes.Compare(x, b.([]byte))
	}
	return 0
}

func typeRank(v any) int {
	switch v.(type) {
	case nil:
		return 0
	case int64, float64:
		return 1
	case string:
		return 2
	case []byte:
		return 3
	}
	return 4
}

func showValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return strconv.Quote(x)
	case []byte:
		return fmt.Sprintf("x'%x'", x)
	}
	return fmt.Sprint(v)
}

// showDiff shows two values; of long texts (a snapshot, a state), only the
// part around their first difference.
func showDiff(a, b any) (string, string) {
	const around = 40
	x, xok := a.(string)
	y, yok := b.(string)
	if !xok || !yok || max(len(x), len(y)) <= 2*around {
		return showValue(a), showValue(b)
	}
	i := 0
	for i < len(x) && i < len(y) && x[i] == y[i] {
		i++
	}
	for i > 0 && i < len(x) && !utf8.RuneStart(x[i]) {
		i-- // start the excerpt on a whole character
	}
	excerpt := func(s string) string {
		from, to := max(0, i-around), min(len(s), i+around)
		for from > 0 && !utf8.RuneStart(s[from]) {
			from--
		}
		for to < len(s) && !utf8.RuneStart(s[to]) {
			to++
		}
		q := strconv.Quote(s[from:to])
		if from > 0 {
			q = "…" + q
		}
		if to < len(s) {
			q += "…"
		}
		return q
	}
	return excerpt(x), excerpt(y)
}
