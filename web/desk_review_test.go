package web

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
)

// reviewTotal is the count of proposals the queue page says its filter selects.
func reviewTotal(t *testing.T, doc *goquery.Document) int {
	t.Helper()
	n, err := strconv.Atoi(doc.Find(`[data-testid="review-count"]`).AttrOr("data-total", ""))
	if err != nil {
		t.Fatalf("review count: %v", err)
	}
	return n
}

// TestReviewQueue: the review queue pages through an import of 1,500 (500
// under -race)
// proposals with counts, filters by ranking, author, status, reviewers
// requested and stale evidence (kept in the URL), shows each proposal's
// changes and every evidence item with a tick, and its batch form —
// without JavaScript — stores one vote per ticked proposal naming exactly
// the evidence ticked, refuses the author's own proposal by itself, comes
// back to the same filtered page with a summary, and stores nothing twice.
func TestReviewQueue(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	n := 1500 // a multiple of 250: eve writes every 250th
	if raceEnabled {
		n = 500
	}
	_, ids := e.bulkImport(batchRanking, authorOf, n, laptopMethodology(), evidenceOf)
	editor, err := e.cmd.User(e.ctx, "editor")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids[10:12] {
		if _, err := e.cmd.RequestReviewers(e.ctx, editor.Actor(), domain.RequestReviewers{Proposal: id, Reviewers: []string{"reviewer1"}}); err != nil {
			t.Fatal(err)
		}
	}
	// One proposal whose evidence expired long ago.
	ed := e.client("editor")
	stale := e.openProposal(ed, "ppio")
	e.mustPost(ed, stale, "evidence", url.Values{"claim": {"Old"}, "source_url": {"https://example.com/old"},
		"excerpt": {"Old news."}, "observed_on": {"2020-01-01"}, "valid_for_days": {"30"}})
	e.mustPost(ed, stale, "changes", url.Values{"criterion": {demo.CritGraphics}, "to": {"9"}, "rationale": {"Old"}, "evidence": {"e1"}})
	e.mustPost(ed, stale, "submit", url.Values{})
	e.caughtUp()

	rev := e.client("reviewer1")
	first := e.page(rev, "/desk/review?ranking="+batchRanking, http.StatusOK)
	rows := first.Find(`[data-testid="review-row"]`)
	if got := reviewTotal(t, first); got != n+1 || rows.Length() != projections.DefaultReviewPerPage {
		t.Fatalf("first page: %d rows of %d, want %d of %d", rows.Length(), got, projections.DefaultReviewPerPage, n+1)
	}
	if nav := first.Find(`[data-testid="nav-review"][href="/desk/review"]`); nav.Length() == 0 {
		t.Error("the navigation does not link the review queue for a reviewer")
	}
	// The rows after the defining proposal are the import's, in order, each
	// with its changes and every evidence item to tick.
	rows.Each(func(i int, s *goquery.Selection) {
		if i == 0 {
			return
		}
		id, k := ids[i-1], evidenceOf(i-1)
		if got := s.AttrOr("data-proposal", ""); got != id {
			t.Fatalf("row %d is %s, want %s", i, got, id)
		}
		if got := s.Find(`[data-testid="review-verify"]`).Length(); got != k {
			t.Errorf("row %d: %d evidence ticks, want %d", i, got, k)
		}
		if got := s.Find(`[data-testid="review-changes"] li`); got.Length() != 2 || !strings.HasPrefix(got.Last().Text(), "Price: ") {
			t.Errorf("row %d: changes %q, want two, named as the proposed methodology names them", i, got.Text())
		}
		if got := s.Find(`[data-testid="review-evidence-item"]`).First().AttrOr("data-capture", ""); got != "pending" {
			t.Errorf("row %d: capture %q, want pending", i, got)
		}
	})
	// Paging: 100 a page, the last one short, the links keep the filter.
	next, _ := first.Find(`[data-testid="review-next"]`).Attr("href")
	if !strings.Contains(next, "ranking="+batchRanking) || !strings.Contains(next, "page=2") {
		t.Errorf("next page link %q does not keep the filter", next)
	}
	pages := (n + 1 + 99) / 100
	last := e.page(rev, "/desk/review?ranking="+batchRanking+"&per=100&page="+strconv.Itoa(pages), http.StatusOK)
	if got, want := last.Find(`[data-testid="review-row"]`).Length(), (n+1)-100*(pages-1); got != want {
		t.Errorf("last page: %d rows, want %d", got, want)
	}
	if last.Find(`[data-testid="review-next"]`).Length() != 0 || last.Find(`[data-testid="review-prev"]`).Length() != 1 {
		t.Error("the last page links no next page, and a previous one")
	}
	for _, c := range []struct {
		query string
		want  int
	}{
		{"ranking=" + batchRanking + "&author=eve", n/250 + 1}, // the definition is eve's too
		{"mine=1", 2},
		{"evidence=quote_not_found", 0},
		{"ranking=" + batchRanking + "&status=cross_validated", 0},
		{"ranking=" + batchRanking + "&category=ultra&per=100", n},
		{"status=any&author=editor&ranking=" + batchRanking, n - n/250},
	} {
		if got := reviewTotal(t, e.page(rev, "/desk/review?"+c.query, http.StatusOK)); got != c.want {
			t.Errorf("?%s: %d proposals, want %d", c.query, got, c.want)
		}
	}
	staleDoc := e.page(rev, "/desk/review?evidence=stale&per=100", http.StatusOK)
	if staleDoc.Find(`[data-proposal="`+stale+`"] [data-stale="true"]`).Length() != 1 ||
		staleDoc.Find(`[data-proposal="`+ids[0]+`"]`).Length() != 0 {
		t.Error("?evidence=stale does not select the proposal with expired evidence alone")
	}
	e.page(rev, "/desk/review?status=nonsense", http.StatusUnprocessableEntity)
	e.page(rev, "/desk/review?page=x", http.StatusBadRequest)
	e.page(e.client("editor"), "/desk/review", http.StatusForbidden)

	// The batch, as eve (editor and reviewer): her own proposal is refused,
	// the others each get her vote with exactly the evidence ticked.
	eve := e.client("eve")
	target := "/desk/review?ranking=" + batchRanking + "&status=in_review"
	form := url.Values{"proposal": {ids[0], ids[1], ids[2]}, "verdict": {"approve"},
		httpx.CommandIDField: {"0192f1e4-0000-7000-8000-00000000abcd"}}
	for _, id := range ids[:3] {
		form.Set("revision."+id, "1")
	}
	form["verified."+ids[1]] = importedEvidence(evidenceOf(1))
	form["verified."+ids[2]] = []string{"e1"} // of three
	before := e.lastSeq()
	status, loc, _ := e.post(eve, target, form)
	if status != http.StatusSeeOther || !strings.HasPrefix(loc, "/desk/review?") {
		t.Fatalf("batch: status %d Location %q", status, loc)
	}
	back, _ := url.Parse(loc)
	q := back.Query()
	if q.Get("ranking") != batchRanking || q.Get("voted") != "2" || !slices.Equal(q["refused"], []string{"proposal.self_approval||1"}) {
		t.Errorf("batch went back to %s, want the same filter with 2 voted and 1 refused", loc)
	}
	if got := e.lastSeq() - before; got != 2 {
		t.Errorf("the batch stored %d events, want 2 votes", got)
	}
	for i, want := range map[int][]string{1: importedEvidence(evidenceOf(1)), 2: {"e1"}} {
		p, err := e.cmd.Proposal(e.ctx, ids[i])
		if err != nil {
			t.Fatal(err)
		}
		if v := p.Votes["eve"]; v == nil || v.Revision != 1 || !slices.Equal(v.VerifiedEvidence, want) {
			t.Errorf("proposal %d: eve's vote %+v, want revision 1 verifying %v", i, v, want)
		}
	}
	for _, lang := range []string{"en", "zh-CN"} {
		eve.header.Set("Accept-Language", lang)
		doc := e.page(eve, loc, http.StatusOK)
		lines := doc.Find(`[data-testid="review-summary-line"]`)
		if lines.Length() != 2 || !strings.Contains(lines.Eq(0).Text(), "2") {
			t.Errorf("%s: summary %q", lang, lines.Text())
		}
		if title := doc.Find("h1").First().Text(); lang == "en" && title != "Review queue" || lang != "en" && title != "审核队列" {
			t.Errorf("%s: title %q", lang, title)
		}
		if doc.Find(`[data-testid="review-partial-note"]`).Length() != 1 {
			t.Errorf("%s: the page does not say what a partial approval verifies", lang)
		}
	}
	// The same form again (a double submit): nothing new.
	mid := e.lastSeq()
	if status, _, _ := e.post(eve, target, form); status != http.StatusSeeOther || e.lastSeq() != mid {
		t.Errorf("double submit: status %d, %d events stored", status, e.lastSeq()-mid)
	}
	// Nothing ticked: the page again with the error, nothing stored.
	delete(form, "proposal")
	form.Set(httpx.CommandIDField, "0192f1e4-0000-7000-8000-00000000abce")
	e.refused(eve, target, form, http.StatusUnprocessableEntity)

	e.caughtUp()
	if _, err := projections.Verify(e.ctx, e.store, e.read.DB()); err != nil {
		t.Errorf("verify after the batch: %v", err)
	}
}
