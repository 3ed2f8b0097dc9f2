package domain_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// reportWorld is a published ranking with one public entry, aliyun.
func reportWorld() (*domain.Ranking, *domain.Edition) {
	r := &domain.Ranking{Slug: "gpu", Criteria: []events.Criterion{{Slug: "price", Weight: 100}}}
	ed := &domain.Edition{Ranking: "gpu", Number: 1, Entries: map[string]*domain.PublishedEntry{"aliyun": {Slug: "aliyun"}}}
	return r, ed
}

func openedReport(id string, c domain.OpenReport) *domain.Report {
	rep := &domain.Report{}
	rep.Evolve(events.Event{Subject: id, Time: time.Now(), Data: &events.ReportOpened{Ranking: c.Ranking, Entry: c.Entry,
		Criterion: c.Criterion, Kind: c.Kind, Text: c.Text}})
	return rep
}

func TestOpenReportRules(t *testing.T) {
	good := domain.OpenReport{Ranking: "gpu", Entry: "aliyun", Criterion: "price", Kind: "wrong", Text: "the price changed"}
	with := func(f func(*domain.OpenReport)) domain.OpenReport { c := good; f(&c); return c }
	tests := []struct {
		name      string
		c         domain.OpenReport
		published bool
		code      string // "" accepted
	}{
		{"good", good, true, ""},
		{"no criterion", with(func(c *domain.OpenReport) { c.Criterion = "" }), true, ""},
		{"ranking not public", good, false, "report.not_public"},
		{"unknown entry", with(func(c *domain.OpenReport) { c.Entry = "nobody" }), true, "report.not_public"},
		{"unknown ranking", with(func(c *domain.OpenReport) { c.Ranking = "other" }), true, "report.not_public"},
		{"empty text", with(func(c *domain.OpenReport) { c.Text = "  \n" }), true, "field.required"},
		{"long text", with(func(c *domain.OpenReport) { c.Text = strings.Repeat("价", domain.MaxReportText+1) }), true, "field.too_long"},
		{"invalid UTF-8", with(func(c *domain.OpenReport) { c.Text = "bad \xff" }), true, "field.not_utf8"},
		{"bad kind", with(func(c *domain.OpenReport) { c.Kind = "rude" }), true, "report.bad_kind"},
		{"unknown criterion", with(func(c *domain.OpenReport) { c.Criterion = "speed" }), true, "report.unknown_criterion"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, ed := reportWorld()
			if !tc.published {
				ed = &domain.Edition{Ranking: "gpu"}
			}
			if tc.c.Ranking != "gpu" {
				r = &domain.Ranking{}
			}
			id := domain.ReportID(tc.c, time.Now())
			got, err := domain.DecideOpenReport(r, ed, &domain.Report{}, id, tc.c)
			if tc.code == "" {
				if err != nil || len(got) != 1 {
					t.Fatalf("got %v, %v; want one event", got, err)
				}
				if _, ok := got[0].Data.(*events.ReportOpened); !ok {
					t.Fatalf("got %T, want ReportOpened", got[0].Data)
				}
				return
			}
			if code := codeOf(err); code != tc.code {
				t.Fatalf("got %v (code %q), want code %q", err, code, tc.code)
			}
		})
	}
}

// TestReportFolds: the same report sent again within the window names the
// same aggregate and folds into it; another text, or the next window, is a
// report of its own.
func TestReportFolds(t *testing.T) {
	c := domain.OpenReport{Ranking: "gpu", Entry: "aliyun", Kind: "wrong", Text: "the price changed"}
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	id := domain.ReportID(c, at)
	if got := domain.ReportID(c, at.Add(domain.ReportFoldWindow-time.Second)); got != id {
		t.Fatalf("same report within the window: id %s, want %s", got, id)
	}
	if got := domain.ReportID(c, at.Add(domain.ReportFoldWindow)); got == id {
		t.Fatal("the next window folded into the first")
	}
	other := c
	other.Text += "!"
	if domain.ReportID(other, at) == id {
		t.Fatal("another text folded")
	}
	r, ed := reportWorld()
	got, err := domain.DecideOpenReport(r, ed, openedReport(id, c), id, c)
	if err != nil || len(got) != 1 {
		t.Fatalf("got %v, %v", got, err)
	}
	if _, ok := got[0].Data.(*events.ReportFolded); !ok {
		t.Fatalf("got %T, want ReportFolded", got[0].Data)
	}
}

func TestReportTriageRules(t *testing.T) {
	c := domain.OpenReport{Ranking: "gpu", Entry: "aliyun", Criterion: "price", Kind: "wrong", Text: "the price changed"}
	editor := domain.Actor{Name: "alice", Roles: []string{domain.RoleEditor}}
	reviewer := domain.Actor{Name: "bob", Roles: []string{domain.RoleReviewer}}
	r, ed := reportWorld()
	entry := &domain.Entry{EntryCreated: events.EntryCreated{Ranking: "gpu", Slug: "aliyun"}}
	rep := openedReport("rp-1", c)

	got, err := domain.DecideAcceptReport(rep, r, entry, ed, &domain.Proposal{}, editor, domain.AcceptReport{Report: "rp-1", Proposal: "p-1"})
	if err != nil || len(got) != 2 {
		t.Fatalf("accept: %v, %v", got, err)
	}
	open, ok := got[0].Data.(*events.ProposalOpened)
	if !ok || open.Entry != "aliyun" || open.Summary != c.Text || !strings.Contains(open.Title, "price") {
		t.Fatalf("accept opened %#v", got[0].Data)
	}
	if acc, ok := got[1].Data.(*events.ReportAccepted); !ok || acc.Proposal != "p-1" || got[1].Aggregate != domain.ReportAggregate("rp-1") {
		t.Fatalf("accept recorded %#v", got[1])
	}
	if _, err := domain.DecideAcceptReport(rep, r, entry, ed, &domain.Proposal{}, reviewer, domain.AcceptReport{Report: "rp-1", Proposal: "p-1"}); !errors.Is(err, domain.ErrRoleRequired) {
		t.Fatalf("a reviewer accepted: %v", err)
	}
	if _, err := domain.DecideDeclineReport(rep, editor, domain.DeclineReport{Report: "rp-1"}); codeOf(err) != "field.required" {
		t.Fatalf("decline without a reason: %v", err)
	}
	if _, err := domain.DecideMarkDuplicate(rep, rep, editor, domain.MarkDuplicate{Report: "rp-1", Of: "rp-1"}); codeOf(err) != "report.bad_duplicate" {
		t.Fatalf("duplicate of itself: %v", err)
	}
	declined := openedReport("rp-1", c)
	declined.Evolve(events.Event{Subject: "rp-1", Data: &events.ReportDeclined{Reason: "no"}})
	if _, err := domain.DecideAcceptReport(declined, r, entry, ed, &domain.Proposal{}, editor, domain.AcceptReport{Report: "rp-1", Proposal: "p-1"}); !errors.Is(err, domain.ErrReportClosed) {
		t.Fatalf("accepted a declined report: %v", err)
	}
	if _, err := domain.DecideDeclineReport(&domain.Report{}, editor, domain.DeclineReport{Report: "rp-x", Reason: "no"}); !errors.Is(err, domain.ErrReportMissing) {
		t.Fatalf("declined a missing report: %v", err)
	}
}

// codeOf returns the code of a domain or field error ("" for nil).
func codeOf(err error) string {
	var fe *domain.FieldError
	var de *domain.Error
	switch {
	case errors.As(err, &fe):
		return fe.Code
	case errors.As(err, &de):
		return de.Code()
	}
	return ""
}
