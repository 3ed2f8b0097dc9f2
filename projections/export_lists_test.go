package projections

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// ListPlans returns SQLite's EXPLAIN QUERY PLAN, one step a line, of every
// query that reads or counts a page of the desk's lists, by name.
func ListPlans(t testing.TB, s *Store, user string) map[string]string {
	t.Helper()
	plans := map[string]string{}
	plan := func(name, q string, args ...any) {
		rows, err := s.db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
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
		plans[name] = b.String()
	}
	for _, q := range []Queue{QueueMyDrafts, QueueMyInReview, QueueAwaitingReview, QueueReadyToPublish} {
		sq := QueueQuery{Queue: q, User: user}.sql()
		for i, part := range sq.parts() {
			where, args := part[0].(string), part[1].([]any)
			name := fmt.Sprintf("queue %s part %d", q, i)
			plan(name+" count", `SELECT count(*) FROM proposals p WHERE `+where, args...)
			plan(name+" page", `SELECT `+proposalCols+` FROM proposals p LEFT JOIN entries e ON e.ranking=p.ranking AND e.slug=p.entry
				WHERE `+prefixed(where)+` ORDER BY `+sq.order+` LIMIT 25 OFFSET 50`, args...)
		}
	}
	day := time.Now().Format(time.DateOnly)
	plan("stale count", `SELECT count(*)`+staleFrom, day)
	plan("stale page", `SELECT pe.ranking, pe.entry, en.name_zh, pe.target, `+evidenceCols+staleFrom+staleOrder+` LIMIT 25 OFFSET 50`, day)
	for _, f := range []AuditFilter{{}, {Ranking: "r"}, {Ranking: "r", Entry: "e"}, {Actor: user}, {Proposal: "p"},
		{Type: "crossrank.proposal.submitted.v1"}, {Type: "crossrank.proposal.vote_cast.v2"}, {From: "2026-01-01", To: "2026-12-31"}} {
		where, args, err := f.where()
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("audit %+v", f)
		plan(name+" count", `SELECT count(*) FROM audit WHERE `+where+` AND seq<=?`, append(args, 1<<40)...)
		plan(name+" page", `SELECT `+auditCols+` FROM audit WHERE `+auditNumberedPage(where), append(args, 1<<40, 50, 100)...)
	}
	for _, kind := range []string{"", "veto"} {
		where, args := `user=?`, []any{user}
		if kind != "" {
			where, args = where+` AND kind=?`, append(args, kind)
		}
		plan("inbox "+kind+" count", `SELECT count(*) FROM inbox WHERE `+where+` AND seq<=?`, append(args, 1<<40)...)
		plan("inbox "+kind+" page", `SELECT seq FROM inbox WHERE `+where+inboxNumberedPage, append(args, 1<<40, 50, 100)...)
	}
	plan("users page", usersPageSQL, 50, 100)
	plan("tokens of users", `SELECT token_id FROM tokens WHERE username IN (?,?) ORDER BY username, issued_at DESC, token_id`, "a", "b")
	plan("account log of users", `SELECT seq FROM audit WHERE aggregate IN (?,?) AND kind='user' ORDER BY seq DESC LIMIT 500`, "a", "b")
	return plans
}
