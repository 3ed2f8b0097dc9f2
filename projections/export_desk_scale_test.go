package projections

import (
	"testing"

	"github.com/crossrank/crossrank/domain"
)

// DeskPlans returns the query plans of what the desk reads on each view
// at scale, by name: the dashboard's queue counts (each queue and its
// first run), a ranking's ready proposals for the publish page, and the
// inbox items' unread count, newest row and page.
func DeskPlans(t testing.TB, s *Store, user string) map[string]string {
	t.Helper()
	plans := map[string]string{}
	plan := func(name, q string, args ...any) {
		rows, err := s.db.Query("EXPLAIN QUERY PLAN "+q, args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer rows.Close()
		out := ""
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatal(err)
			}
			out += detail + "\n"
		}
		plans[name] = out
	}
	for _, q := range []Queue{QueueMyInReview, QueueAwaitingReview} {
		sq := QueueQuery{Queue: q, User: user}.sql()
		plan("queue "+string(q)+" count", `SELECT count(*) FROM proposals p WHERE `+sq.where, sq.args...)
		first := sq.parts()[0]
		plan("queue "+string(q)+" first count", `SELECT count(*) FROM proposals p WHERE `+first[0].(string), first[1].([]any)...)
	}
	plan("ready refs", `SELECT id, author = ?1 OR instr(revisers, json_quote(?1)) > 0
		FROM proposals WHERE ranking = ?2 AND status = ?3 ORDER BY updated_at, id`, user, "r", string(domain.StatusCrossValidated))
	plan("inbox items unread", `SELECT count(*) FROM inbox_items i JOIN users u ON u.username=i.user
		WHERE i.user=? AND i.last_seq>u.inbox_read_upto`, user)
	plan("inbox items newest", `SELECT coalesce(max(last_seq), 0) FROM inbox_items WHERE user=?`, user)
	plan("inbox items page", `SELECT seq FROM inbox_items WHERE user=?`+inboxNumberedPage, user, 1<<40, 50, 100)
	return plans
}
