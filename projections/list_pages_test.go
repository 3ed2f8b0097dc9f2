package projections_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/projections"
)

// TestListPagesReadIndexes: every query that reads or counts a page of
// the desk's lists (the dashboard's queues, stale evidence, the audit
// trail under each filter, the inbox, the users page) walks a key or an
// index in list order: no sort of the whole list ("USE TEMP B-TREE FOR
// ORDER BY"), and no scan of a table except the audit trail's and the
// users' own key, read in order and stopped at the page. The account log
// of a page's users sorts their rows alone, found by the aggregate index.
func TestListPagesReadIndexes(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "read.db"))
	scan := regexp.MustCompile(`(?m)^SCAN (\w+)`)
	for name, plan := range projections.ListPlans(t, s, "editor") {
		if name == "account log of users" {
			if !strings.Contains(plan, "INDEX audit_aggregate") {
				t.Errorf("%s reads the trail by no index:\n%s", name, plan)
			}
			continue
		}
		if strings.Contains(plan, "USE TEMP B-TREE FOR ORDER BY") {
			t.Errorf("%s sorts the whole list:\n%s", name, plan)
		}
		for _, m := range scan.FindAllStringSubmatch(plan, -1) {
			// The author's turn walks partial indexes of the open vetoes
			// and unresolved comments alone (migration 028).
			if m[1] == "v" && strings.Contains(plan, "SCAN v USING INDEX votes_open_veto") ||
				m[1] == "c" && strings.Contains(plan, "SCAN c USING INDEX comments_unresolved") {
				continue
			}
			if m[1] != "json_each" && m[1] != "users" {
				t.Errorf("%s scans %s:\n%s", name, m[1], plan)
			}
		}
		if strings.HasPrefix(name, "audit") && !strings.Contains(plan, "audit USING") {
			t.Errorf("%s reads the trail by no key or index:\n%s", name, plan)
		}
	}
}
