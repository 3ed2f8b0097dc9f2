package desk_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestProposalEditor walks an editor through the forms without script:
// open (twice with one cmd_id: one proposal), add evidence, propose a score
// and an attribute, remove what is not wanted, submit. Every post answers
// 303 to the proposal's page, which then shows the write.
func TestProposalEditor(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	c := e.Client("editor")
	doc := e.Page(c, "/desk/proposals/new", http.StatusOK)
	if doc.Find(`[data-testid="open-existing-form"] select[name="entry"] option[value="ppio"]`).Length() != 1 {
		t.Fatal("the new-proposal form does not offer the published entry ppio")
	}
	if doc.Find(`[data-testid="open-new-form"] select[name="category"] option`).Length() != 4 {
		t.Error("the new-entry form does not offer the ranking's four categories")
	}

	// Opening twice with the same cmd_id opens one proposal.
	commandID := events.NewID(time.Now())
	open := url.Values{"ranking": {webtest.DemoRanking}, "entry": {"ppio"}, "title": {"PPIO graphics"}, httpx.CommandIDField: {commandID}}
	before := e.LastSeq()
	for range 2 {
		status, loc, _ := e.Post(c, "/desk/proposals", open)
		if status != http.StatusSeeOther || loc != "/desk/proposals/"+commandID {
			t.Fatalf("open: status %d Location %q, want 303 to the proposal", status, loc)
		}
	}
	if got := e.LastSeq() - before; got != 1 {
		t.Errorf("opening twice with one cmd_id appended %d events, want 1", got)
	}
	id := commandID

	doc = e.Page(c, "/desk/proposals/"+id, http.StatusOK)
	for _, tid := range []string{"editor", "evidence-form", "score-form", "attr-form-billing", "impact", "impact-overall", "impact-category", "impact-scenario-training"} {
		if webtest.TestCount(doc, tid) == 0 {
			t.Errorf("draft page lacks %s", tid)
		}
	}
	if webtest.TestCount(doc, "submit") != 0 {
		t.Error("submit offered before any change")
	}

	e.MustPost(c, id, "evidence", url.Values{"claim": {"Renders"}, "source_url": {"https://example.com/ppio?a=1&b=2"},
		"section": {"§7"}, "excerpt": {"PPIO renders."}, "observed_on": {"2026-01-15"}, "valid_for_days": {"30"}})
	e.MustPost(c, id, "evidence", url.Values{"claim": {"Named"}, "source_name": {"Market overview"},
		"excerpt": {"Named source."}, "observed_on": {"2026-01-15"}})
	ed, err := e.Cmd.Edition(e.Ctx, webtest.DemoRanking)
	if err != nil {
		t.Fatal(err)
	}
	published := "not scored"
	if n, ok := ed.Entry("ppio").Scores[demo.CritGraphics]; ok {
		published = strconv.Itoa(n)
	}
	e.MustPost(c, id, "changes", url.Values{"criterion": {demo.CritGraphics}, "to": {"9"}, "rationale": {"It renders"}, "evidence": {"e1"}})
	e.MustPost(c, id, "changes", url.Values{"attribute": {demo.AttrBilling}, "to": {"spot", "whole-lease"}, "rationale": {"Leases"}, "evidence": {"e1", "e2"}})

	doc = e.Page(c, "/desk/proposals/"+id, http.StatusOK)
	row := doc.Find(`[data-testid="diff-score-` + demo.CritGraphics + `"]`)
	if got := strings.TrimSpace(row.Find(`[data-testid="diff-label"]`).Text()); got != "Graphics & remote desktop" {
		t.Errorf("diff label %q", got)
	}
	if b, a := strings.TrimSpace(row.Find(`[data-testid="diff-before"]`).Text()), strings.TrimSpace(row.Find(`[data-testid="diff-after"]`).Text()); b != published || a != "9" {
		t.Errorf("score diff %q → %q, want %q → 9", b, a, published)
	}
	attr := doc.Find(`[data-testid="diff-attr-` + demo.AttrBilling + `"]`)
	// ppio's published billing is on-demand, spot, autoscaling.
	if added := attr.Find(`[data-testid="diff-added"]`).Text(); added != "+ Whole-machine lease" {
		t.Errorf("attribute diff adds %q, want the whole-lease label", added)
	}
	if removed := attr.Find(`[data-testid="diff-removed"]`).Text(); !strings.Contains(removed, "On demand") || !strings.Contains(removed, "Elastic scheduling and autoscaling") {
		t.Errorf("attribute diff drops %q, want on-demand and autoscaling", removed)
	}
	// The evidence: a link that opens the source in a new tab without
	// handing it this page; a named source is text.
	link := doc.Find(`[data-testid="evidence-e1"] a[data-testid="evidence-source"]`)
	if link.AttrOr("href", "") != "https://example.com/ppio?a=1&b=2" || link.AttrOr("target", "") != "_blank" || link.AttrOr("rel", "") != "noopener noreferrer" {
		t.Errorf("evidence link: href %q target %q rel %q", link.AttrOr("href", ""), link.AttrOr("target", ""), link.AttrOr("rel", ""))
	}
	if doc.Find(`[data-testid="evidence-e2"] a`).Length() != 0 || webtest.TestText(doc, "evidence-e2") == "" {
		t.Error("a named source without URL must show as text")
	}
	if !regexp.MustCompile(`^(#\d+|unranked) → #\d+ overall$`).MatchString(webtest.TestText(doc, "impact-overall")) {
		t.Errorf("impact %q", webtest.TestText(doc, "impact-overall"))
	}
	// The criterion select shows the published and proposed values.
	opt := strings.TrimSpace(doc.Find(`select[name="criterion"] option[value="` + demo.CritGraphics + `"]`).Text())
	if !strings.Contains(opt, "published: "+published) || !strings.Contains(opt, "proposed: 9") {
		t.Errorf("criterion option %q", opt)
	}

	// Cited evidence cannot be removed; the change can, then the evidence too.
	if webtest.TestCount(doc, "remove-evidence-e1") != 0 {
		t.Error("cited evidence e1 offered for removal")
	}
	e.MustPost(c, id, "changes/remove", url.Values{"target": {"attr:" + demo.AttrBilling}})
	e.MustPost(c, id, "evidence/remove", url.Values{"evidence_id": {"e2"}})
	doc = e.Page(c, "/desk/proposals/"+id, http.StatusOK)
	if webtest.TestCount(doc, "diff-attr-"+demo.AttrBilling) != 0 || webtest.TestCount(doc, "evidence-removed") != 1 {
		t.Errorf("after removals: attr rows %d, removed evidence %d", webtest.TestCount(doc, "diff-attr-"+demo.AttrBilling), webtest.TestCount(doc, "evidence-removed"))
	}

	e.MustPost(c, id, "submit", url.Values{})
	doc = e.Page(c, "/desk/proposals/"+id, http.StatusOK)
	if st := doc.Find(`[data-testid="proposal"]`).AttrOr("data-status", ""); st != "in_review" {
		t.Errorf("status after submit %q", st)
	}
	for _, tid := range []string{"editor", "approve-form", "reject-vote-form", "submit"} {
		if webtest.TestCount(doc, tid) != 0 {
			t.Errorf("the author sees %s on their proposal in review", tid)
		}
	}
	if webtest.TestCount(doc, "withdraw-form") != 1 || webtest.TestCount(doc, "revise-form") != 1 {
		t.Error("the author is not offered withdraw and revise in review")
	}
}

// TestProposalImpact: the live preview answers what a typed score would do,
// in the reader's language; a higher score never ranks the entry lower.
func TestProposalImpact(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	c := e.Client("editor")
	base := "/desk/proposals/" + webtest.DemoDraft + "/impact"
	overall := func(to int) int {
		doc := e.Page(c, base+"?criterion="+demo.CritGraphics+"&to="+strconv.Itoa(to), http.StatusOK)
		m := regexp.MustCompile(`→ #(\d+)`).FindStringSubmatch(webtest.TestText(doc, "impact-overall"))
		if m == nil {
			t.Fatalf("to=%d: impact %q", to, webtest.TestText(doc, "impact-overall"))
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if lo, hi := overall(0), overall(10); hi > lo {
		t.Errorf("rank with graphics 10 is #%d, with 0 #%d: a higher score ranked lower", hi, lo)
	}
	before := e.LastSeq()
	doc := e.Page(c, base+"?criterion="+demo.CritGraphics+"&to=10", http.StatusOK)
	if !strings.HasPrefix(webtest.TestText(doc, "impact-what"), "As if Graphics & remote desktop were 10") {
		t.Errorf("what-if %q", webtest.TestText(doc, "impact-what"))
	}
	if doc.Find("html header, nav").Length() != 0 {
		t.Error("the impact fragment carries the page layout")
	}
	zh := e.Client("editor")
	zh.Header.Set("Accept-Language", "zh")
	doc = e.Page(zh, base+"?criterion="+demo.CritGraphics+"&to=10", http.StatusOK)
	if got := webtest.TestText(doc, "impact-overall"); !strings.HasPrefix(got, "总榜 ") {
		t.Errorf("zh impact %q", got)
	}
	if got := webtest.TestText(doc, "impact-category"); !strings.HasPrefix(got, "轻量化平台 ") {
		t.Errorf("zh category impact %q, want the category's Chinese name", got)
	}
	if got := webtest.TestText(doc, "impact-scenario-training"); !strings.HasPrefix(got, "训练场景 ") {
		t.Errorf("zh scenario impact %q", got)
	}
	for _, q := range []string{"criterion=" + demo.CritGraphics + "&to=11", "criterion=" + demo.CritGraphics + "&to=x", "criterion=nope&to=3"} {
		e.Page(c, base+"?"+q, http.StatusUnprocessableEntity)
	}
	e.Page(c, "/desk/proposals/no-such-proposal/impact", http.StatusNotFound)
	if e.LastSeq() != before {
		t.Error("the impact preview appended events")
	}
}

// TestProposalPageNotFound: an unknown or malformed id is a 404 page.
func TestProposalPageNotFound(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	c := e.Client("reviewer1")
	for _, id := range []string{"no-such-proposal", "Bad%20Id", strings.Repeat("a", 90)} {
		e.Page(c, "/desk/proposals/"+id, http.StatusNotFound)
	}
}

// docStatus is the proposal's status on its page.
func docStatus(doc *goquery.Document) string {
	return doc.Find(`[data-testid="proposal"]`).AttrOr("data-status", "")
}

// TestDeskMessagesInBothLanguages renders every desk page, as each role and
// in both languages, and finds no catalog key left untranslated.
func TestDeskMessagesInBothLanguages(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	key := regexp.MustCompile(`\b(desk|status|role|count|form|nav|error)\.[a-z_]+(\.[a-z_]+)*\b`)
	pages := map[string][]string{
		"editor":    {"/desk", "/desk/proposals/new", "/desk/proposals/" + webtest.DemoDraft, "/desk/proposals/" + webtest.DemoInReview},
		"reviewer2": {"/desk", "/desk/proposals/" + webtest.DemoInReview, "/desk/proposals/" + webtest.DemoValidated},
		"publisher": {"/desk", "/desk/proposals/" + webtest.DemoValidated},
	}
	for user, paths := range pages {
		for _, lang := range []string{"en", "zh"} {
			c := e.Client(user)
			for _, p := range paths {
				doc := e.Page(c, p+"?lang="+lang, http.StatusOK)
				text := doc.Find("body").Text()
				for _, attr := range []string{"placeholder", "title", "aria-label", "data-confirm"} {
					doc.Find("[" + attr + "]").Each(func(_ int, s *goquery.Selection) { text += " " + s.AttrOr(attr, "") })
				}
				if m := key.FindString(text); m != "" {
					t.Errorf("%s %s (%s): untranslated key %q", user, p, lang, m)
				}
				if lang == "zh" && !strings.Contains(text, "工作台") {
					t.Errorf("%s %s: not in Chinese", user, p)
				}
			}
		}
	}
}

// TestProposalNewEntry opens a proposal that registers an entry, through
// the new-entry form: a bad slug shows the form again, then a good one
// opens the proposal, whose impact counts from no rank.
func TestProposalNewEntry(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	c := e.Client("editor")
	form := url.Values{"ranking": {webtest.DemoRanking}, "new_entry": {"1"}, "entry": {"New Cloud!"}, "name_zh": {"新云"},
		"name_en": {"New Cloud"}, "category": {"ai-cloud"}, "website": {"https://new-cloud.example"}, "title": {"Add New Cloud"}}
	doc := e.Refused(c, "/desk/proposals", form, http.StatusUnprocessableEntity)
	if webtest.TestText(doc, "field-error-entry") == "" || doc.Find(`[data-testid="open-new-form"] input[name="name_zh"]`).AttrOr("value", "") != "新云" {
		t.Errorf("the new-entry form was not shown again with its error and values: %q", webtest.TestText(doc, "form-error"))
	}
	if doc.Find(`[data-testid="open-new-form"] option[value="ai-cloud"][selected]`).Length() != 1 {
		t.Error("the chosen category was not kept")
	}
	form.Set("entry", "new-cloud")
	form.Set("website", "javascript:alert(1)")
	e.Refused(c, "/desk/proposals", form, http.StatusUnprocessableEntity)
	form.Set("website", "https://new-cloud.example")
	status, loc, _ := e.Post(c, "/desk/proposals", form)
	if status != http.StatusSeeOther || !strings.HasPrefix(loc, "/desk/proposals/") {
		t.Fatalf("open: status %d Location %q", status, loc)
	}
	doc = e.Page(c, loc, http.StatusOK)
	if !strings.Contains(webtest.TestText(doc, "proposal-meta"), "new entry") || !strings.HasPrefix(webtest.TestText(doc, "proposal-meta"), "New Cloud") {
		t.Errorf("meta %q", webtest.TestText(doc, "proposal-meta"))
	}
	if got := webtest.TestText(doc, "impact-overall"); !strings.HasPrefix(got, "unranked → #") {
		t.Errorf("impact of a new entry %q", got)
	}
}

// TestProposalClosing: the author withdraws a draft, a publisher rejects a
// proposal in review; both are closed with their reason and offer no form.
func TestProposalClosing(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	ed := e.Client("editor")
	e.Refused(e.Client("publisher"), "/desk/proposals/"+webtest.DemoInReview+"/reject", url.Values{}, http.StatusUnprocessableEntity)
	e.MustPost(ed, webtest.DemoDraft, "withdraw", url.Values{"reason": {"Duplicate of another proposal"}})
	e.MustPost(e.Client("publisher"), webtest.DemoInReview, "reject", url.Values{"reason": {"Out of scope for this ranking"}})
	for id, want := range map[string]string{webtest.DemoDraft: "withdrawn", webtest.DemoInReview: "rejected"} {
		doc := e.Page(ed, "/desk/proposals/"+id, http.StatusOK)
		if docStatus(doc) != want || webtest.TestText(doc, "closed-reason") == "" {
			t.Errorf("%s: status %q, reason %q", id, docStatus(doc), webtest.TestText(doc, "closed-reason"))
		}
		for _, tid := range []string{"editor", "review", "lifecycle", "impact"} {
			if webtest.TestCount(doc, tid) != 0 {
				t.Errorf("%s (%s) still shows %s", id, want, tid)
			}
		}
	}
	e.Refused(ed, "/desk/proposals/"+webtest.DemoDraft+"/evidence", url.Values{"claim": {"c"}, "source_name": {"s"},
		"excerpt": {"x"}, "observed_on": {"2026-01-01"}}, http.StatusConflict)
}
