package desk_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/crossrank/crossrank/projections/history"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestReviewQueueAfterApproval: approving a batch from the review queue
// leads to the queue filtered to "not yet approved by me", from its first
// page: the proposals just approved (still in review, a second approval
// short of the quorum) leave the list instead of coming back as the same
// rows, and the filter shows, ticked, on the page. Unticked, the queue
// lists them all again.
func TestReviewQueueAfterApproval(t *testing.T) {
	e := webtest.NewAdmin(t)
	slug, _, err := history.LargeRanking(e.Ctx, e.Store, history.ReadyEdition{Entries: 20, Criteria: 1, Seed: 42, InReview: 20})
	if err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	rev := e.Client("rev")
	queue := "/desk/review?status=in_review&ranking=" + slug
	rows := func(target string) (doc *goquery.Document, ids []string, total string) {
		t.Helper()
		doc = e.Get(rev, target, http.StatusOK)
		doc.Find(`[data-testid="review-row"]`).Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("data-proposal", "")) })
		return doc, ids, doc.Find(`[data-testid="review-count"]`).AttrOr("data-total", "")
	}
	_, ids, total := rows(queue)
	if total != "20" || len(ids) != 20 {
		t.Fatalf("the queue: %d rows, total %s; want 20", len(ids), total)
	}
	approved := ids[:5]
	form := url.Values{"proposal": approved, "verdict": {"approve"}, httpx.CommandIDField: {"0192f1e4-0000-7000-8000-00000000ab42"}}
	for _, id := range approved {
		form.Set("revision."+id, "1")
		form.Set("verified."+id, "e1")
	}
	status, loc, _ := e.Post(rev, queue+"&page=2", form)
	back, err := url.Parse(loc)
	if status != http.StatusSeeOther || err != nil {
		t.Fatalf("approve: status %d, Location %q", status, loc)
	}
	if q := back.Query(); q.Get("unapproved") != "1" || q.Has("page") || q.Get("voted") != "5" {
		t.Errorf("after approving 5, the queue is %s; want unapproved=1 from page 1, 5 voted", loc)
	}
	e.CaughtUp()
	doc, left, total := rows(loc)
	if total != "15" || len(left) != 15 {
		t.Errorf("left to review: %d rows, total %s; want 15", len(left), total)
	}
	for _, id := range left {
		if slices.Contains(approved, id) {
			t.Errorf("%s, just approved, is listed again", id)
		}
	}
	if doc.Find(`[data-testid="review-filter-unapproved"][checked]`).Length() != 1 {
		t.Errorf("the filter is not shown ticked")
	}
	if _, all, total := rows(queue); total != "20" || len(all) != 20 {
		t.Errorf("without the filter: %d rows, total %s; want 20", len(all), total)
	}
}
