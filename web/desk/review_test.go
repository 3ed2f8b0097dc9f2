package desk_test

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
	"github.com/crossrank/crossrank/web/webtest"
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
	if raceEnabled || testing.Short() {
		n = 500 // still six pages; the full run reads 1,500
	}
	_, ids := e.BulkImport(webtest.BatchRanking, webtest.AuthorOf, n, webtest.LaptopMethodology(), webtest.EvidenceOf)
	editor, err := e.Cmd.User(e.Ctx, "editor")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids[10:12] {
		if _, err := e.Cmd.RequestReviewers(e.Ctx, editor.Actor(), domain.RequestReviewers{Proposal: id, Reviewers: []string{"reviewer1"}}); err != nil {
			t.Fatal(err)
		}
	}
	// One proposal whose evidence expired long ago.
	ed := e.Client("editor")
	stale := e.OpenProposal(ed, "ppio")
	e.MustPost(ed, stale, "evidence", url.Values{"claim": {"Old"}, "source_url": {"https://example.com/old"},
		"excerpt": {"Old news."}, "observed_on": {"2020-01-01"}, "valid_for_days": {"30"}})
	e.MustPost(ed, stale, "changes", url.Values{"criterion": {demo.CritGraphics}, "to": {"9"}, "rationale": {"Old"}, "evidence": {"e1"}})
	e.MustPost(ed, stale, "submit", url.Values{})
	e.CaughtUp()

	rev := e.Client("reviewer1")
	first := e.Page(rev, "/desk/review?ranking="+webtest.BatchRanking, http.StatusOK)
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
		id, k := ids[i-1], webtest.EvidenceOf(i-1)
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
	if !strings.Contains(next, "ranking="+webtest.BatchRanking) || !strings.Contains(next, "page=2") {
		t.Errorf("next page link %q does not keep the filter", next)
	}
	pages := (n + 1 + 99) / 100
	last := e.Page(rev, "/desk/review?ranking="+webtest.BatchRanking+"&per=100&page="+strconv.Itoa(pages), http.StatusOK)
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
		{"ranking=" + webtest.BatchRanking + "&author=eve", n/250 + 1}, // the definition is eve's too
		{"mine=1", 2},
		{"evidence=quote_not_found", 0},
		{"ranking=" + webtest.BatchRanking + "&status=cross_validated", 0},
		{"ranking=" + webtest.BatchRanking + "&category=ultra&per=100", n},
		{"status=any&author=editor&ranking=" + webtest.BatchRanking, n - n/250},
	} {
		if got := reviewTotal(t, e.Page(rev, "/desk/review?"+c.query, http.StatusOK)); got != c.want {
			t.Errorf("?%s: %d proposals, want %d", c.query, got, c.want)
		}
	}
	staleDoc := e.Page(rev, "/desk/review?evidence=stale&per=100", http.StatusOK)
	if staleDoc.Find(`[data-proposal="`+stale+`"] [data-stale="true"]`).Length() != 1 ||
		staleDoc.Find(`[data-proposal="`+ids[0]+`"]`).Length() != 0 {
		t.Error("?evidence=stale does not select the proposal with expired evidence alone")
	}
	e.Page(rev, "/desk/review?status=nonsense", http.StatusUnprocessableEntity)
	e.Page(rev, "/desk/review?page=x", http.StatusBadRequest)
	e.Page(e.Client("editor"), "/desk/review", http.StatusForbidden)

	// The batch, as eve (editor and reviewer): her own proposal is refused,
	// the others each get her vote with exactly the evidence ticked.
	eve := e.Client("eve")
	target := "/desk/review?ranking=" + webtest.BatchRanking + "&status=in_review"
	form := url.Values{"proposal": {ids[0], ids[1], ids[2]}, "verdict": {"approve"},
		httpx.CommandIDField: {"0192f1e4-0000-7000-8000-00000000abcd"}}
	for _, id := range ids[:3] {
		form.Set("revision."+id, "1")
	}
	form["verified."+ids[1]] = webtest.ImportedEvidence(webtest.EvidenceOf(1))
	form["verified."+ids[2]] = []string{"e1"} // of three
	before := e.LastSeq()
	status, loc, _ := e.Post(eve, target, form)
	if status != http.StatusSeeOther || !strings.HasPrefix(loc, "/desk/review?") {
		t.Fatalf("batch: status %d Location %q", status, loc)
	}
	back, _ := url.Parse(loc)
	q := back.Query()
	if q.Get("ranking") != webtest.BatchRanking || q.Get("voted") != "2" || !slices.Equal(q["refused"], []string{"proposal.self_approval||1"}) {
		t.Errorf("batch went back to %s, want the same filter with 2 voted and 1 refused", loc)
	}
	if got := e.LastSeq() - before; got != 2 {
		t.Errorf("the batch stored %d events, want 2 votes", got)
	}
	for i, want := range map[int][]string{1: webtest.ImportedEvidence(webtest.EvidenceOf(1)), 2: {"e1"}} {
		p, err := e.Cmd.Proposal(e.Ctx, ids[i])
		if err != nil {
			t.Fatal(err)
		}
		if v := p.Votes["eve"]; v == nil || v.Revision != 1 || !slices.Equal(v.VerifiedEvidence, want) {
			t.Errorf("proposal %d: eve's vote %+v, want revision 1 verifying %v", i, v, want)
		}
	}
	for _, lang := range []string{"en", "zh-CN"} {
		eve.Header.Set("Accept-Language", lang)
		doc := e.Page(eve, loc, http.StatusOK)
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
	mid := e.LastSeq()
	if status, _, _ := e.Post(eve, target, form); status != http.StatusSeeOther || e.LastSeq() != mid {
		t.Errorf("double submit: status %d, %d events stored", status, e.LastSeq()-mid)
	}
	// Nothing ticked: the page again with the error, nothing stored.
	delete(form, "proposal")
	form.Set(httpx.CommandIDField, "0192f1e4-0000-7000-8000-00000000abce")
	e.Refused(eve, target, form, http.StatusUnprocessableEntity)

	e.CaughtUp()
	if _, err := projections.Verify(e.Ctx, e.Store, e.Read.DB()); err != nil {
		t.Errorf("verify after the batch: %v", err)
	}
}
