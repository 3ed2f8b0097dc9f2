package projections

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// SearchPlan returns SQLite's EXPLAIN QUERY PLAN of the page query of q
// (the count reads the same condition),
// one step a line.
func SearchPlan(t testing.TB, s *Store, q SearchQuery) string {
	t.Helper()
	where, args, err := s.searchWhere(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := s.db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+searchPages[q.Kind]+" WHERE "+where+" ORDER BY d.ranking, d.a, d.b", args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&b, detail)
	}
	return b.String()
}
