package desk_test

import (
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestReportsNamed: the readers' reports queue names what a person reads,
// not the ids it stores: the entry and criterion by their names, the
// accepted report's proposal by its title, the report a duplicate repeats
// by its date and entry; a report sent twice says "1 more time", and the
// queue counts its reports in words. Only the report's own id stays, as
// the handle the "duplicate of" field asks for.
func TestReportsNamed(t *testing.T) {
	e := newDemoEnv(t)
	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	open := func(text string) string {
		t.Helper()
		out, err := e.Cmd.OpenReport(e.Ctx, domain.OpenReport{Ranking: webtest.DemoRanking, Entry: "ppio",
			Criterion: demo.CritGPUs, Kind: "wrong", Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return out.ID
	}
	accepted, first := open("PPIO lists H200 cards now."), open("The GPU list is out of date.")
	if again := open("The GPU list is out of date."); again != first {
		t.Fatalf("the same report sent again is %s, not folded into %s", again, first)
	}
	dup := open("PPIO's GPU list misses the H200.")
	proposal := events.NewID(time.Now())
	if _, err := e.Cmd.AcceptReport(e.Ctx, editor, domain.AcceptReport{CommandID: proposal, Report: accepted, Proposal: proposal}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Cmd.MarkDuplicate(e.Ctx, editor, domain.MarkDuplicate{CommandID: dup + "-dup", Report: dup, Of: first}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	det, err := e.Read.Proposal(e.Ctx, proposal)
	if err != nil {
		t.Fatal(err)
	}

	for _, lang := range []string{"en", "zh"} {
		doc := e.Page(e.Client("editor"), paths.Reports+"?lang="+lang, 200)
		want := map[string]string{"en": "3 reports", "zh": "3 份报告"}[lang]
		if got := webtest.TestText(doc, "reports-total"); got != want {
			t.Errorf("%s: the total reads %q, want %q", lang, got, want)
		}
		doc.Find(`[data-testid="report"]`).Each(func(_ int, s *goquery.Selection) {
			id, _ := s.Attr("data-report")
			text := s.Text()
			// The one id left is the report's own, in its id field.
			others := strings.ReplaceAll(text, s.Find(`[data-testid="report-id"]`).Text(), "")
			for _, uuid := range []string{accepted, first, dup, proposal} {
				if strings.Contains(others, uuid) && !strings.Contains(det.Title, uuid) {
					t.Errorf("%s: report %s shows the id %s: %q", lang, id, uuid, strings.Join(strings.Fields(text), " "))
				}
			}
			if got := strings.TrimSpace(s.Find(`[data-testid="report-entry"] a`).Text()); !strings.Contains(got, "PPIO") { // 派欧云 PPIO in Chinese
				t.Errorf("%s: report %s names its entry %q", lang, id, got)
			}
		})
		row := func(id string) *goquery.Selection { return doc.Find(`[data-report="` + id + `"]`) }
		if got := strings.TrimSpace(row(accepted).Find(`[data-testid="report-proposal"]`).Text()); got != det.Title {
			t.Errorf("%s: the accepted report links its proposal as %q, want its title %q", lang, got, det.Title)
		}
		if got := row(dup).Find(`[data-testid="report-duplicate"]`).Text(); strings.Contains(got, first) || !strings.Contains(got, "PPIO") {
			t.Errorf("%s: the duplicate says %q", lang, got)
		}
		if lang == "en" && !strings.Contains(row(first).Text(), "sent 1 more time") || strings.Contains(row(first).Text(), "1 more times") {
			t.Errorf("%s: the folded report says %q", lang, strings.Join(strings.Fields(row(first).Text()), " "))
		}
	}
}
