package desk_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// listsAtScale is the desk's lists at real size, appended in bulk: an
// import of 100 proposals in review by editor; reviewer1 comments
// perComment times on each even one (10,000 inbox rows for editor, and
// audit rows by reviewer1); reviewer2 vetoes every tenth odd one; and
// editor opens 100 drafts beside each (10,000 drafts). It returns the
// rows made: comments, vetoes and drafts, and the proposals in review.
func listsAtScale(t *testing.T, e *demoEnv) (comments, vetoes, drafts int, ids []string) {
	perComment, perDraft := 200, 100
	if raceEnabled {
		perComment, perDraft = 20, 10 // the same pages and counts, a tenth of the repetition
	}
	const n = 100
	m := webtest.LaptopMethodology()
	proposed := domain.ProposedRanking(webtest.BatchRanking, m)
	rev1 := domain.Actor{Name: "reviewer1", Roles: []string{domain.RoleReviewer}}
	rev2 := domain.Actor{Name: "reviewer2", Roles: []string{domain.RoleReviewer}}
	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	var def string
	def, ids = e.BulkImportThen(webtest.BatchRanking, func(int) string { return "editor" }, n, m, func(int) int { return 1 },
		func(w *history.Writer, i int, id string) error {
			for k := range perComment * ((i + 1) % 2) {
				if err := w.As(rev1)(domain.DecideAddComment(w.Proposal(id), rev1,
					domain.AddComment{Proposal: id, Body: fmt.Sprintf("Check %d of %s", k, id)})); err != nil {
					return err
				}
				comments++
			}
			if i%10 == 1 {
				if err := w.As(rev2)(domain.DecideCastVote(proposed, w.Edition(webtest.BatchRanking), w.Proposal(id), rev2,
					domain.CastVote{Proposal: id, Revision: 1, Verdict: events.Reject, Comment: "Not yet"})); err != nil {
					return err
				}
				vetoes++
			}
			for k := range perDraft {
				d, entry := w.ID(), fmt.Sprintf("draft-%03d-%03d", i, k)
				if err := w.As(editor)(domain.DecideOpenProposal(proposed, w.Entry(webtest.BatchRanking, entry), w.Edition(webtest.BatchRanking),
					w.Proposal(d), editor, domain.OpenProposal{ID: d, Ranking: webtest.BatchRanking, Entry: entry, Title: "Draft " + entry,
						DependsOn: def, NewEntry: &domain.NewEntry{Name: events.Text{Zh: "草稿 " + entry, En: "Draft " + entry},
							Category: m.Categories[0].Slug}})); err != nil {
					return err
				}
				drafts++
			}
			return nil
		})
	return comments, vetoes, drafts, ids
}

// pagerCount reads a pager's total, page and pages.
func pagerCount(t *testing.T, doc *goquery.Document, testid string) (total, page, pages int) {
	t.Helper()
	nav := doc.Find(`[data-testid="` + testid + `-pager"]`)
	if nav.Length() != 1 {
		t.Fatalf("no %s pager", testid)
	}
	for _, a := range []struct {
		name string
		dst  *int
	}{{"data-total", &total}, {"data-page", &page}, {"data-pages", &pages}} {
		n, err := strconv.Atoi(nav.AttrOr(a.name, ""))
		if err != nil {
			t.Fatalf("%s %s: %v", testid, a.name, err)
		}
		*a.dst = n
	}
	return total, page, pages
}

// inboxSeqs are the sequences of an inbox page's rows, in order.
func inboxSeqs(t *testing.T, doc *goquery.Document) []uint64 {
	t.Helper()
	var out []uint64
	doc.Find(`[data-testid="inbox-item"]`).Each(func(_ int, s *goquery.Selection) {
		n, err := strconv.ParseUint(s.AttrOr("data-seq", ""), 10, 64)
		if err != nil {
			t.Fatalf("inbox row seq: %v", err)
		}
		out = append(out, n)
	})
	return out
}

// linkParams returns the query of a pager's link.
func linkParams(t *testing.T, doc *goquery.Document, testid string) url.Values {
	t.Helper()
	href, ok := doc.Find(`[data-testid="` + testid + `"]`).First().Attr("href")
	if !ok {
		t.Fatalf("no link %s", testid)
	}
	u, err := url.Parse(href)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query()
}

// TestDeskListsPageAtTenThousand: the dashboard's 10,000 drafts (see
// dashboardAtScale), the inbox of 10,000 comments and
// 100 vetoes, and the audit trail of 10,000 comments, page with counts on
// the desk and through the API: the first, a middle and the last page
// hold the rows the whole list puts there, the links keep the filter and
// the sequence the pages count from, so a page shows the same rows after
// more events arrive (and a link offers them), and a page past the last
// is 404, as on the public ranking.
func TestDeskListsPageAtTenThousand(t *testing.T) {
	if testing.Short() {
		t.Skip("full run only: pages desk lists at 10,000 entries; go test -short skips it")
	}
	e := newDemoEnv(t)
	n, vetoes, drafts, ids := listsAtScale(t, e)
	t.Run("dashboard", func(t *testing.T) { dashboardAtScale(t, e, drafts) })
	ed := e.Client("editor")

	// Every row of the inbox, newest first, read through the cursor.
	var all []uint64
	for before := ""; ; {
		var page struct {
			Items []struct {
				Seq uint64 `json:"seq"`
			} `json:"items"`
			Next  string `json:"next"`
			Total int    `json:"total"`
		}
		res, body := ed.Do(http.MethodGet, "/api/v1/inbox?limit=200"+before, nil, nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("inbox cursor: %d %.300s", res.StatusCode, body)
		}
		webtest.DecodeJSON(t, body, &page)
		for _, it := range page.Items {
			all = append(all, it.Seq)
		}
		if page.Next == "" {
			break
		}
		before = "&before=" + page.Next
	}
	// The demo's own rows besides.
	if len(all) < n+vetoes {
		t.Fatalf("the inbox holds %d rows, want at least %d", len(all), n+vetoes)
	}

	doc := e.Page(ed, paths.Inbox, http.StatusOK)
	total, page, pages := pagerCount(t, doc, "inbox")
	per := 50
	if total != len(all) || page != 1 || pages != (total+per-1)/per {
		t.Fatalf("inbox: page %d of %d, %d rows", page, pages, total)
	}
	if got := doc.Find(`[data-testid="inbox-count"]`).Text(); got != fmt.Sprintf("1–50 of %d", total) {
		t.Errorf("inbox count %q", got)
	}
	if got := inboxSeqs(t, doc); !slices.Equal(got, all[:per]) {
		t.Errorf("inbox page 1: %v…, want %v…", got[:3], all[:3])
	}
	next := linkParams(t, doc, "page-next")
	upto := next.Get("upto")
	if next.Get("page") != "2" || upto != strconv.FormatUint(all[0], 10) {
		t.Errorf("next page link %v, want page 2 counted from %d", next, all[0])
	}
	middle := pages / 2
	target := fmt.Sprintf("%s?page=%d&upto=%s", paths.Inbox, middle, upto)
	doc = e.Page(ed, target, http.StatusOK)
	if got, want := inboxSeqs(t, doc), all[(middle-1)*per:middle*per]; !slices.Equal(got, want) {
		t.Errorf("inbox page %d: %v…, want %v…", middle, got[:1], want[:1])
	}
	lastDoc := e.Page(ed, fmt.Sprintf("%s?page=%d&upto=%s", paths.Inbox, pages, upto), http.StatusOK)
	if got, want := inboxSeqs(t, lastDoc), all[(pages-1)*per:]; !slices.Equal(got, want) || lastDoc.Find(`[data-testid="page-next"]`).Length() != 0 {
		t.Errorf("inbox last page: %d rows, want %d, and no next", len(got), len(want))
	}
	e.Page(ed, fmt.Sprintf("%s?page=%d&upto=%s", paths.Inbox, pages+1, upto), http.StatusNotFound)

	// The filter is kept in the links.
	if total, _, _ := pagerCount(t, e.Page(ed, paths.Inbox+"?kind=veto", http.StatusOK), "inbox"); total < vetoes || total > vetoes+5 {
		t.Errorf("vetoes: %d, want %d and the demo's", total, vetoes)
	}
	commentDoc := e.Page(ed, paths.Inbox+"?kind=comment", http.StatusOK)
	if total, _, _ := pagerCount(t, commentDoc, "inbox"); total < n {
		t.Errorf("comments: %d, want at least %d", total, n)
	}
	if q := linkParams(t, commentDoc, "page-next"); q.Get("kind") != "comment" || q.Get("page") != "2" || q.Get("upto") == "" {
		t.Errorf("comment next page link %v", q)
	}
	e.Page(ed, paths.Inbox+"?kind=nonsense", http.StatusBadRequest)
	e.Page(ed, paths.Inbox+"?upto=x", http.StatusBadRequest)

	// The API answers the same page, with its counts.
	var api struct {
		Items []struct {
			Seq uint64 `json:"seq"`
		} `json:"items"`
		Total int    `json:"total"`
		Page  int    `json:"page"`
		Pages int    `json:"pages"`
		UpTo  uint64 `json:"upto"`
		Since int    `json:"since"`
	}
	res, body := ed.Do(http.MethodGet, fmt.Sprintf("/api/v1/inbox?page=%d&upto=%s", middle, upto), nil, nil)
	webtest.DecodeJSON(t, body, &api)
	if res.StatusCode != http.StatusOK || api.Total != total || api.Page != middle || api.Pages != pages || len(api.Items) != per ||
		api.Items[0].Seq != all[(middle-1)*per] {
		t.Errorf("API inbox page %d: status %d, %+v", middle, res.StatusCode, api)
	}
	if res, _ := ed.Do(http.MethodGet, fmt.Sprintf("/api/v1/inbox?page=%d&upto=%s", pages+1, upto), nil, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("API inbox past the last page: %d", res.StatusCode)
	}

	// The audit trail of reviewer1's comments, newest first.
	var auditAll []uint64
	if err := e.Read.AuditEach(e.Ctx, projections.AuditFilter{Actor: "reviewer1"}, func(r projections.AuditRow) error {
		auditAll = append(auditAll, r.Seq)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(auditAll) < n {
		t.Fatalf("reviewer1 caused %d events, want at least %d", len(auditAll), n)
	}
	audit := e.Page(ed, paths.Audit+"?actor=reviewer1", http.StatusOK)
	atotal, _, apages := pagerCount(t, audit, "audit")
	aper := 50
	if atotal != len(auditAll) || !slices.Equal(auditSeqs(t, audit), auditAll[:aper]) {
		t.Fatalf("audit: %d rows, want %d", atotal, n)
	}
	q := linkParams(t, audit, "page-next")
	aupto := q.Get("upto")
	if q.Get("actor") != "reviewer1" || q.Get("page") != "2" || aupto != strconv.FormatUint(auditAll[0], 10) {
		t.Errorf("audit next page link %v", q)
	}
	amiddle := apages / 2
	audit = e.Page(ed, fmt.Sprintf("%s?actor=reviewer1&page=%d&upto=%s", paths.Audit, amiddle, aupto), http.StatusOK)
	if got, want := auditSeqs(t, audit), auditAll[(amiddle-1)*aper:amiddle*aper]; !slices.Equal(got, want) {
		t.Errorf("audit page %d: %v…, want %v…", amiddle, got[:1], want[:1])
	}
	audit = e.Page(ed, fmt.Sprintf("%s?actor=reviewer1&page=%d&upto=%s", paths.Audit, apages, aupto), http.StatusOK)
	if got, want := auditSeqs(t, audit), auditAll[(apages-1)*aper:]; !slices.Equal(got, want) {
		t.Errorf("audit last page: %d rows, want %d", len(got), len(want))
	}
	e.Page(ed, fmt.Sprintf("%s?actor=reviewer1&page=%d&upto=%s", paths.Audit, apages+1, aupto), http.StatusNotFound)
	var apage struct {
		Rows []struct {
			Seq uint64 `json:"seq"`
		} `json:"rows"`
		Total int `json:"total"`
		Pages int `json:"pages"`
	}
	res, body = ed.Do(http.MethodGet, fmt.Sprintf("/api/v1/audit?actor=reviewer1&page=%d&upto=%s", amiddle, aupto), nil, nil)
	webtest.DecodeJSON(t, body, &apage)
	if res.StatusCode != http.StatusOK || apage.Total != len(auditAll) || apage.Pages != apages || len(apage.Rows) != aper ||
		apage.Rows[0].Seq != auditAll[(amiddle-1)*aper] {
		t.Errorf("API audit page %d: status %d, total %d, %d pages, %d rows", amiddle, res.StatusCode, apage.Total, apage.Pages, len(apage.Rows))
	}
	if res, _ := ed.Do(http.MethodGet, fmt.Sprintf("/api/v1/audit?actor=reviewer1&page=%d", apages+1), nil, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("API audit past the last page: %d", res.StatusCode)
	}

	// Three more comments: the pages counted from upto keep their rows,
	// and offer the three.
	r1 := e.Client("reviewer1")
	for _, id := range ids[:3] {
		if status, _, doc := e.Post(r1, "/desk/proposals/"+id+"/comments", url.Values{"body": {"One more"}}); status != http.StatusSeeOther {
			t.Fatalf("comment: status %d %q", status, webtest.TestText(doc, "form-error"))
		}
	}
	e.CaughtUp()
	doc = e.Page(ed, target, http.StatusOK)
	if got := inboxSeqs(t, doc); !slices.Equal(got, all[(middle-1)*per:middle*per]) {
		t.Error("a page counted from upto changed when events arrived")
	}
	if got := doc.Find(`[data-testid="inbox-latest"]`).Text(); !strings.Contains(got, "3 newer") {
		t.Errorf("latest link %q", got)
	}
	if total, _, _ := pagerCount(t, e.Page(ed, paths.Inbox, http.StatusOK), "inbox"); total != len(all)+3 {
		t.Errorf("the latest inbox counts %d", total)
	}
}

// dashboardAtScale: editor's drafts page 25 at a time, newest first, with
// the count; each queue keeps its own page in the URL; a page past the
// last shows the last. My proposals in review list first those where it
// is editor's turn, exactly those the domain's attention set names.
func dashboardAtScale(t *testing.T, e *demoEnv, drafts int) {
	ed := e.Client("editor")
	perDraft := drafts / 100
	// The i-th newest draft of the import (the demo's own is older).
	title := func(i int) string {
		k := drafts - 1 - i
		return fmt.Sprintf("draft-%03d-%03d", k/perDraft, k%perDraft)
	}
	items := func(doc *goquery.Document, queue string) *goquery.Selection {
		return doc.Find(`[data-testid="queue-` + queue + `"] [data-testid="queue-item"]`)
	}
	doc := e.Page(ed, "/desk", http.StatusOK)
	total, _, pages := pagerCount(t, doc, "queue-my-drafts")
	if total < drafts || items(doc, "my-drafts").Length() != 25 || !strings.Contains(items(doc, "my-drafts").First().Text(), title(0)) {
		t.Fatalf("drafts: %d of %d, first %q", items(doc, "my-drafts").Length(), total, items(doc, "my-drafts").First().Find("a").Text())
	}
	if got := doc.Find(`[data-testid="queue-my-drafts-count"]`).Text(); got != fmt.Sprintf("1–25 of %d", total) {
		t.Errorf("drafts count %q", got)
	}
	middle := pages / 2
	doc = e.Page(ed, fmt.Sprintf("/desk?page-my-drafts=%d&page-my-in-review=2", middle), http.StatusOK)
	items(doc, "my-drafts").Each(func(j int, s *goquery.Selection) {
		if want := title((middle-1)*25 + j); !strings.Contains(s.Text(), want) {
			t.Errorf("drafts page %d, item %d: %q, want %s", middle, j, s.Find("a").Text(), want)
		}
	})
	if q := linkParams(t, doc, "page-next"); q.Get("page-my-drafts") != strconv.Itoa(middle+1) || q.Get("page-my-in-review") != "2" {
		t.Errorf("the drafts' next page %v does not keep the other queue's page", q)
	}
	last := e.Page(ed, fmt.Sprintf("/desk?page-my-drafts=%d", pages+5), http.StatusOK)
	if _, page, _ := pagerCount(t, last, "queue-my-drafts"); page != pages || items(last, "my-drafts").Length() != total-(pages-1)*25 {
		t.Errorf("past the last page: page %d of %d, %d items", page, pages, items(last, "my-drafts").Length())
	}

	// Every page of my proposals in review: the author's turn first, as
	// the domain judges it.
	seenOthers, turns := false, 0
	mine, _, minePages := pagerCount(t, e.Page(ed, "/desk", http.StatusOK), "queue-my-in-review")
	for page := 1; page <= minePages; page++ {
		doc := e.Page(ed, fmt.Sprintf("/desk?page-my-in-review=%d", page), http.StatusOK)
		items(doc, "my-in-review").Each(func(_ int, s *goquery.Selection) {
			href := s.Find(`[data-testid="queue-item-link"]`).AttrOr("href", "")
			p, err := e.Cmd.Proposal(e.Ctx, strings.TrimPrefix(href, "/desk/proposals/"))
			if err != nil {
				t.Fatal(err)
			}
			_, requested := s.Attr("data-requested")
			if turn := slices.Contains(p.AttentionSet(), "editor"); turn != requested {
				t.Errorf("%s: listed as editor's turn %v, the domain says %v", p.ID, requested, turn)
			}
			if requested {
				turns++
				if seenOthers {
					t.Errorf("%s is editor's turn, listed after a proposal that is not", p.ID)
				}
			} else {
				seenOthers = true
			}
		})
	}
	if mine < 101 || turns < 60 {
		t.Errorf("my proposals in review: %d, %d of them my turn; want at least 101 and 60", mine, turns)
	}
}
