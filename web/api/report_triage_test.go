package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/site"
	"github.com/crossrank/crossrank/web/webtest"
)

// report sends a reader's report through the API and returns its id.
func (e *reportEnv) report(addr, entry, criterion, text string) string {
	e.T.Helper()
	res, body := e.Post(reportsAPI, addr, map[string]string{"entry": entry, "criterion": criterion, "kind": "wrong",
		"text": text, "contact": "someone@example.org"})
	var out command.ReportCreated
	if err := json.Unmarshal([]byte(body), &out); err != nil || res.StatusCode != http.StatusCreated {
		e.T.Fatalf("report: %d %s", res.StatusCode, body)
	}
	return out.ID
}

// TestReportTriage walks the triage: a reader reports; an editor accepts
// (a draft proposal on the entry and criterion), declines with a reason and
// marks a duplicate through the API; the accepted proposal passes review
// and is published, and the public corrections log shows each outcome —
// with the edition — and never the reporter.
func TestReportTriage(t *testing.T) {
	e := newReportEnv(t)
	wrong := e.report("192.0.2.10", "ppio", "gpu-coverage", "PPIO now lists H200 cards.")
	noted := e.report("192.0.2.11", "ppio", "", "The description is too kind.")
	again := e.report("192.0.2.12", "ppio", "gpu-coverage", "PPIO has H200 now, see their site.")
	editor, reviewer := e.Bearer("editor"), e.Bearer("reviewer1")

	res, body := e.Get("/api/v1/reports?ranking="+demo.RankingSlug+"&status=open", "Authorization", editor)
	var list api.Reports
	if err := json.Unmarshal([]byte(body), &list); err != nil || res.StatusCode != 200 || list.Total != 3 {
		t.Fatalf("open reports: %d %s", res.StatusCode, body)
	}
	if strings.Contains(body, "someone@example.org") {
		t.Fatal("the API shows a contact address")
	}
	if res, _ := e.Get("/api/v1/reports?status=maybe", "Authorization", editor); res.StatusCode != http.StatusBadRequest {
		t.Errorf("bad status filter: %d", res.StatusCode)
	}
	if res, _ := e.Get("/api/v1/reports", "Authorization", reviewer); res.StatusCode != http.StatusForbidden {
		t.Errorf("a reviewer read the queue: %d", res.StatusCode)
	}
	if res, _ := e.Post("/api/v1/reports/"+wrong+"/accept", "10.0.0.1", struct{}{}, "Authorization", reviewer); res.StatusCode != http.StatusForbidden {
		t.Errorf("a reviewer accepted: %d", res.StatusCode)
	}

	res, body = e.Post("/api/v1/reports/"+wrong+"/accept", "10.0.0.1", struct{}{}, "Authorization", editor)
	var acc command.ReportAccepted
	if err := json.Unmarshal([]byte(body), &acc); err != nil || res.StatusCode != http.StatusCreated || acc.Proposal == "" {
		t.Fatalf("accept: %d %s", res.StatusCode, body)
	}
	p, err := e.Cmd.Proposal(e.Ctx, acc.Proposal)
	if err != nil || p.Entry != "ppio" || p.Status != domain.StatusDraft || p.Author != "editor" {
		t.Fatalf("the accepted report's proposal: %+v, %v", p, err)
	}
	if res, _ := e.Post("/api/v1/reports/"+wrong+"/accept", "10.0.0.1", struct{}{}, "Authorization", editor); res.StatusCode != http.StatusConflict {
		t.Errorf("accepted twice: %d", res.StatusCode)
	}
	if res, body := e.Post("/api/v1/reports/"+noted+"/decline", "10.0.0.1", map[string]string{}, "Authorization", editor); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "reason") {
		t.Errorf("declined without a reason: %d %s", res.StatusCode, body)
	}
	if res, body := e.Post("/api/v1/reports/"+noted+"/decline", "10.0.0.1", map[string]string{"reason": "Our description quotes the vendor."}, "Authorization", editor); res.StatusCode != http.StatusOK {
		t.Fatalf("decline: %d %s", res.StatusCode, body)
	}
	if res, body := e.Post("/api/v1/reports/"+again+"/duplicate", "10.0.0.1", map[string]string{"of": wrong}, "Authorization", editor); res.StatusCode != http.StatusOK {
		t.Fatalf("duplicate: %d %s", res.StatusCode, body)
	}

	// The proposal goes through review and the quorum like any other.
	ed := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	step := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	step(e.Cmd.AddEvidence(e.Ctx, ed, domain.AddEvidence{CommandID: acc.Proposal + "-ev", Proposal: acc.Proposal,
		Claim: events.Text{En: "H200 listed"}, Excerpt: "H200 on demand", SourceURL: "https://example.org/ppio", ObservedOn: time.Now().Format(time.DateOnly)}))
	step(e.Cmd.ProposeScore(e.Ctx, ed, domain.ProposeScore{CommandID: acc.Proposal + "-score", Proposal: acc.Proposal,
		Criterion: "gpu-coverage", To: 5, Rationale: events.Text{En: "the reader was right"}, Evidence: []string{"e1"}}))
	step(e.Cmd.Submit(e.Ctx, ed, domain.Submit{CommandID: acc.Proposal + "-submit", Proposal: acc.Proposal}))
	for _, r := range []string{"reviewer1", "reviewer2"} {
		step(e.Cmd.CastVote(e.Ctx, domain.Actor{Name: r, Roles: []string{domain.RoleReviewer}}, domain.CastVote{
			CommandID: acc.Proposal + "-vote-" + r, Proposal: acc.Proposal, Revision: 1, Verdict: events.Approve, VerifiedEvidence: []string{"e1"}}))
	}
	e.CaughtUp()
	edition := e.Publish(acc.Proposal)

	res, body = e.Get("/api/v1/rankings/" + demo.RankingSlug + "/corrections")
	var log site.Corrections
	if err := json.Unmarshal([]byte(body), &log); err != nil || res.StatusCode != 200 || log.Total != 3 {
		t.Fatalf("corrections: %d %s", res.StatusCode, body)
	}
	got := map[string]site.Correction{}
	for _, c := range log.Corrections {
		got[c.ID] = c
	}
	if c := got[wrong]; c.Status != domain.ReportAccepted || c.Proposal != acc.Proposal || c.Edition != edition {
		t.Errorf("accepted: %+v, want proposal %s in edition %d", c, acc.Proposal, edition)
	}
	if c := got[noted]; c.Status != domain.ReportDeclined || c.Reason != "Our description quotes the vendor." {
		t.Errorf("declined: %+v", c)
	}
	if c := got[again]; c.Status != domain.ReportDuplicate || c.DuplicateOf != wrong {
		t.Errorf("duplicate: %+v", c)
	}
	for _, lang := range []string{"en", "zh-CN"} {
		doc := e.Page("/r/"+demo.RankingSlug+"/corrections", "Accept-Language", lang)
		if n := doc.Find(`[data-testid="correction"]`).Length(); n != 3 {
			t.Errorf("%s: %d corrections shown, want 3", lang, n)
		}
		href, _ := doc.Find(`[data-report="` + wrong + `"] [data-testid="correction-edition"]`).Attr("href")
		if href != fmt.Sprintf("/r/%s/editions/%d", demo.RankingSlug, edition) {
			t.Errorf("%s: the accepted report links edition %q", lang, href)
		}
		if html, _ := doc.Html(); strings.Contains(html, "someone@example.org") || strings.Contains(html, "192.0.2.") {
			t.Errorf("%s: the log shows the reporter", lang)
		}
	}
	if res, _ := e.Get("/r/no-such-ranking/corrections"); res.StatusCode != http.StatusNotFound {
		t.Errorf("corrections of no ranking: %d", res.StatusCode)
	}
	checkCorrectionsFeed(t, e, wrong, noted, edition)
	checkReportsNav(t, e, editor, reviewer)

	// The desk's queue, filtered by status.
	res, body = e.Get("/desk/reports?status=declined", "Authorization", editor)
	if res.StatusCode != 200 {
		t.Fatalf("desk queue: %d", res.StatusCode)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ids := webtest.Testids(doc, "report", "data-report"); len(ids) != 1 || ids[0] != noted {
		t.Errorf("declined reports on the desk: %v, want %s", ids, noted)
	}
	// The entry page offers the form, with its hidden honeypot.
	entry := e.Page("/r/"+demo.RankingSlug+"/e/ppio", "Accept-Language", "en")
	if entry.Find(`[data-testid="report-form"] form[method="post"] textarea[name="text"]`).Length() != 1 ||
		entry.Find(`input[name="`+command.HoneypotField+`"]`).Length() != 1 {
		t.Error("the entry page has no report form")
	}
}
