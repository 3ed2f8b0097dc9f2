package projections_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
)

// TestDeskQueriesReadIndexes: what the desk reads on every view at scale
// seeks its rows by index. Whether a reviewer voted on a proposal is one
// probe by proposal and voter (it was a walk of the reviewer's every vote
// by votes_voter: 9.3 s for 2,000 proposals in review against 8,000
// votes); the author's turn is sought from the open vetoes and unresolved
// comments, not tested on each of the author's proposals; a ranking's
// ready proposals come in list order without a sort; the inbox's items
// are counted and paged by their indexes.
func TestDeskQueriesReadIndexes(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "read.db"))
	plans := projections.DeskPlans(t, s, "editor")
	for name, want := range map[string]string{
		"queue awaiting-review count":       "votes_proposal_voter (proposal=? AND voter=? AND current=? AND revision=?)",
		"queue my-in-review first count":    "proposals_author (author=? AND status=? AND id=?)",
		"ready refs":                        "proposals_ranking_status_updated (ranking=? AND status=?)",
		"inbox items unread":                "inbox_items_last (user=? AND last_seq>?)",
		"inbox items newest":                "inbox_items_last",
		"inbox items page":                  "PRIMARY KEY (user=? AND seq<?)",
		"queue my-in-review count":          "proposals_author (author=? AND status=?)",
		"queue awaiting-review first count": "proposal_reviewers",
	} {
		plan, ok := plans[name]
		if !ok {
			t.Errorf("no plan %q", name)
			continue
		}
		if !strings.Contains(plan, want) {
			t.Errorf("%s does not use %s:\n%s", name, want, plan)
		}
		if strings.Contains(plan, "USE TEMP B-TREE FOR ORDER BY") {
			t.Errorf("%s sorts:\n%s", name, plan)
		}
		for _, line := range strings.Split(plan, "\n") {
			if strings.HasPrefix(line, "SCAN ") && !strings.Contains(line, "json_each") &&
				!strings.Contains(line, "votes_open_veto") && !strings.Contains(line, "comments_unresolved") {
				t.Errorf("%s scans: %s\n%s", name, line, plan)
			}
		}
	}
}

// TestInboxItemsGatherABurst: the rows one actor's burst of work makes
// for a user are one inbox item with their count — here the second
// reviewer's votes that cross-validated every proposal of an import — while
// the rows stay one per proposal for the mail digest. The header's unread
// count counts items. At full size the burst is 10,000 proposals.
func TestInboxItemsGatherABurst(t *testing.T) {
	t.Parallel()
	n := 30
	if !testing.Short() {
		n = 10_000
	}
	ctx := testContext(t)
	env := jstest.Start(t)
	if _, _, err := history.LargeRanking(ctx, env.Store, history.ReadyEdition{Entries: n, Criteria: 1, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "read.db")
	if _, err := projections.Rebuild(ctx, env.Store, path); err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	editor, rev2 := "l5-editor", "l5-rev2"
	rows, err := s.InboxBetween(ctx, editor, 0, 1<<40, n+10)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != n {
		t.Fatalf("%d inbox rows, want one per proposal (%d)", len(rows), n)
	}
	page, err := s.InboxItems(ctx, projections.InboxFilter{User: editor})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Rows) != 1 || page.Total != 1 || page.Unread != 1 {
		t.Fatalf("%d items (total %d, %d unread), want 1", len(page.Rows), page.Total, page.Unread)
	}
	it := page.Rows[0]
	if it.Kind != "cross_validated" || it.Actor != rev2 || it.Count != n || it.Seq != rows[0].Seq || it.LastSeq != rows[n-1].Seq ||
		it.Proposal != rows[0].Proposal || page.Newest != rows[n-1].Seq {
		t.Errorf("item %+v (newest %d), want %d rows of %s from %d to %d", it, page.Newest, n, rev2, rows[0].Seq, rows[n-1].Seq)
	}
	if unread, err := s.InboxUnread(ctx, editor); err != nil || unread != 1 {
		t.Errorf("unread %d, %v; want 1", unread, err)
	}
}

// TestInboxItemsGatherRules: a row joins the user's latest item of its
// kind, actor and ranking when it comes less than ten minutes after that
// item's newest row; an edition's rows join only the same edition's; a
// comment is an item of its own; and a row inserted again (redelivery)
// counts once.
func TestInboxItemsGatherRules(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "read.db"))
	db := s.DB()
	ctx := context.Background()
	type row struct {
		seq                           int
		kind, ranking, actor, at, det string
	}
	for _, r := range []row{
		{1, "cross_validated", "r", "rev", "2026-03-02T08:00:00Z", ""},
		{2, "cross_validated", "r", "rev", "2026-03-02T08:09:00.5Z", ""},
		{3, "veto", "r", "rev", "2026-03-02T08:09:30Z", "no"},
		{4, "cross_validated", "r", "rev", "2026-03-02T08:12:00Z", ""}, // joins 1–2: 3 min after 2
		{5, "cross_validated", "r", "rex", "2026-03-02T08:12:10Z", ""}, // another actor
		{6, "cross_validated", "q", "rev", "2026-03-02T08:12:20Z", ""}, // another ranking
		{7, "cross_validated", "r", "rev", "2026-03-02T08:23:00Z", ""}, // 11 min after 4
		{8, "comment", "r", "rev", "2026-03-02T08:23:10Z", "c1"},       // comments stand alone
		{9, "comment", "r", "rev", "2026-03-02T08:23:20Z", "c2"},
		{10, "published", "r", "pat", "2026-03-02T09:00:00Z", "1"},
		{11, "published", "r", "pat", "2026-03-02T09:00:01Z", "1"},
		{12, "published", "r", "pat", "2026-03-02T09:00:02Z", "2"}, // another edition
		{12, "published", "r", "pat", "2026-03-02T09:00:02Z", "2"}, // redelivered
	} {
		if _, err := db.ExecContext(ctx, `INSERT INTO inbox VALUES ('ed',?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
			r.seq, r.kind, r.ranking, "p"+string(rune('a'+r.seq)), r.actor, r.at, r.det); err != nil {
			t.Fatal(err)
		}
	}
	got := map[int][2]int{} // by first seq: count and last seq
	q, err := db.QueryContext(ctx, `SELECT seq, count, last_seq FROM inbox_items WHERE user='ed'`)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for q.Next() {
		var seq, count, last int
		if err := q.Scan(&seq, &count, &last); err != nil {
			t.Fatal(err)
		}
		got[seq] = [2]int{count, last}
	}
	want := map[int][2]int{1: {3, 4}, 3: {1, 3}, 5: {1, 5}, 6: {1, 6}, 7: {1, 7}, 8: {1, 8}, 9: {1, 9}, 10: {2, 11}, 12: {1, 12}}
	if len(got) != len(want) {
		t.Errorf("items %v, want %v", got, want)
	}
	for seq, w := range want {
		if got[seq] != w {
			t.Errorf("item at %d: count and last %v, want %v", seq, got[seq], w)
		}
	}
}
