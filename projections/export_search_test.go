package projections

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// SearchPlan returns SQLite's EXPLAIN QUERY PLAN of the query reading the
// candidates of q and of the query reading a page of two, one step a line.
func SearchPlan(t testing.TB, s *Store, q SearchQuery) string {
	t.Helper()
	return queryPlan(t, s, candidatesOf(ftsTable(q.Kind)), searchMatch(q), SearchCandidates+1) +
		queryPlan(t, s, pageOf(q.Kind, 2), searchMatch(q), 1, 2)
}

func queryPlan(t testing.TB, s *Store, q string, args ...any) string {
	t.Helper()
	rows, err := s.db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, args...)
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

// ReadableSnippet is readable, for the tests of snippets.
func ReadableSnippet(s string) []SnippetPart { return readable(s) }

// SearchBody is searchBody, for the tests of segmentation.
func SearchBody(fields ...string) string { return searchBody(fields...) }
