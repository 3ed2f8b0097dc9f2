package desk

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// reviewView is the model of the review queue: the proposals a filter
// selects, a page at a time, each with its changes and every evidence item
// of its revision to tick, and one form that approves or rejects the
// proposals ticked, each as its own vote.
type reviewView struct {
	ui.Page
	Filter   reviewFilter
	Statuses []reviewOption
	Problems []reviewOption // the evidence problems to filter by
	PerPages []reviewOption

	Rows         []reviewRow
	Total        int
	PageNo       int // the page shown, from 1
	Pages        int
	First, Last  int    // the rows shown, counted from 1
	Prev, Next   string // the neighbouring pages' addresses, "" for none
	Action       string // where the form posts: this page, filters kept
	Summary      []string
	SummaryError bool // some votes were refused

	state ui.FormState
}

// reviewFilter is the queue's filter as the URL holds it.
type reviewFilter struct {
	Ranking, Category, Author, Status, Evidence string
	Mine                                        bool // requested of me
	Unapproved                                  bool // not yet approved by me (on by default after an approval)
	PerPage                                     int
}

type reviewOption struct {
	Value, Label string
	Selected     bool
}

// reviewRow is one proposal of the queue.
type reviewRow struct {
	ID, Href, Title, Entry, Ranking, Author, Status, StatusText string
	Revision                                                    int
	Changes                                                     []string
	Evidence                                                    []reviewEvidence
	Quorum                                                      string
}

// reviewEvidence is one evidence item, compactly, with its tick.
type reviewEvidence struct {
	ID, Excerpt, Source, SourceLabel string
	Claim                            ui.Bilingual
	Capture, CaptureState            string // the capture's state in words, and its code
	Quote, QuoteState                string // whether the capture holds the excerpt: found, not_found, unchecked
	Stale                            bool
}

// reviewStatuses are the statuses the queue filters by ("" is any).
var reviewStatuses = []domain.Status{domain.StatusInReview, domain.StatusCrossValidated, domain.StatusDraft,
	domain.StatusPublished, domain.StatusRejected, domain.StatusWithdrawn}

// serveReview shows the review queue.
func (d *Desk) serveReview(w http.ResponseWriter, r *http.Request) {
	d.renderReview(w, r, http.StatusOK, ui.FormState{})
}

// reviewFilterOf reads the queue's filter from the URL; an unknown status
// or evidence problem is a field error (422), a page or page size that is
// no number a malformed request (400).
func reviewFilterOf(q url.Values) (reviewFilter, int, error) {
	f := reviewFilter{Ranking: q.Get("ranking"), Category: q.Get("category"), Author: q.Get("author"),
		Status: q.Get("status"), Evidence: q.Get("evidence"), Mine: q.Get("mine") == "1",
		Unapproved: q.Get("unapproved") == "1",
		PerPage:    projections.DefaultReviewPerPage}
	if !q.Has("status") {
		f.Status = string(domain.StatusInReview) // what awaits review; "any" shows all
	}
	if f.Status != "any" && !slices.Contains(reviewStatuses, domain.Status(f.Status)) {
		return f, 0, domain.Invalid("status", "field.unknown_status", domain.Args{"value": f.Status})
	}
	if f.Evidence != "" && f.Evidence != projections.EvidenceStale && f.Evidence != projections.EvidenceQuoteNotFound {
		return f, 0, domain.Invalid("evidence", "field.unknown_evidence_problem", domain.Args{"value": f.Evidence})
	}
	page := 1
	for _, p := range []struct {
		name string
		dst  *int
	}{{"page", &page}, {"per", &f.PerPage}} {
		if v := q.Get(p.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return f, 0, &httpx.BadField{Field: p.name, Code: "field.whole_number"}
			}
			*p.dst = n
		}
	}
	f.PerPage = min(f.PerPage, projections.MaxReviewPerPage)
	return f, page, nil
}

// query is the filter as URL parameters, on page.
func (f reviewFilter) query(page int) url.Values {
	q := url.Values{}
	for _, kv := range [][2]string{{"ranking", f.Ranking}, {"category", f.Category}, {"author", f.Author}, {"evidence", f.Evidence}} {
		if kv[1] != "" {
			q.Set(kv[0], kv[1])
		}
	}
	q.Set("status", f.Status)
	if f.Mine {
		q.Set("mine", "1")
	}
	if f.Unapproved {
		q.Set("unapproved", "1")
	}
	if f.PerPage != projections.DefaultReviewPerPage {
		q.Set("per", strconv.Itoa(f.PerPage))
	}
	if page > 1 {
		q.Set("page", strconv.Itoa(page))
	}
	return q
}

// renderReview renders the queue the URL asks for; st is a failed batch's
// form state (its message).
func (d *Desk) renderReview(w http.ResponseWriter, r *http.Request, status int, st ui.FormState) {
	ctx := r.Context()
	p := ui.PageOf(r, "desk.review.title", "review")
	f, page, err := reviewFilterOf(r.URL.Query())
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	now := httpx.Now(ctx).UTC()
	pf := projections.ReviewFilter{Ranking: f.Ranking, Category: f.Category, Author: f.Author, Evidence: f.Evidence,
		Today: now.Format(time.DateOnly), Page: page, PerPage: f.PerPage}
	if f.Status != "any" {
		pf.Status = f.Status
	}
	if f.Mine {
		pf.RequestedOf = p.User.Username
	}
	if f.Unapproved {
		pf.NotApprovedBy = p.User.Username
	}
	res, err := d.read.ReviewQueue(ctx, pf)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	v := reviewView{Page: p, Filter: f, Total: res.Total, PageNo: res.Page, Pages: res.Pages(), state: st,
		Action: paths.Review + "?" + f.query(res.Page).Encode()}
	v.Statuses = append(v.Statuses, reviewOption{Value: "any", Label: p.T("desk.review.status_any"), Selected: f.Status == "any"})
	for _, s := range reviewStatuses {
		v.Statuses = append(v.Statuses, reviewOption{Value: string(s), Label: p.StatusLabel(s), Selected: f.Status == string(s)})
	}
	for _, e := range []string{"", projections.EvidenceStale, projections.EvidenceQuoteNotFound} {
		v.Problems = append(v.Problems, reviewOption{Value: e, Label: p.T("desk.review.evidence_" + problemKey(e)), Selected: f.Evidence == e})
	}
	for _, n := range []int{projections.DefaultReviewPerPage, projections.MaxReviewPerPage} {
		v.PerPages = append(v.PerPages, reviewOption{Value: strconv.Itoa(n), Label: strconv.Itoa(n), Selected: f.PerPage == n})
	}
	if len(res.Rows) > 0 {
		v.First = (res.Page-1)*res.PerPage + 1
		v.Last = v.First + len(res.Rows) - 1
	}
	if res.Page > 1 {
		v.Prev = paths.Review + "?" + f.query(res.Page-1).Encode()
	}
	if res.Page < v.Pages {
		v.Next = paths.Review + "?" + f.query(res.Page+1).Encode()
	}
	labels := newLabelCache(d.read)
	today := now.Format(time.DateOnly)
	for _, row := range res.Rows {
		l := labels.get(ctx, row.Ranking)
		if l.r == nil {
			// A ranking in review: the names its proposed methodology gives.
			if l, err = d.judgedLabels(ctx, row.ID); err != nil {
				ui.Fail(w, r, err)
				return
			}
			labels.m[row.Ranking] = l
		}
		v.Rows = append(v.Rows, reviewRowOf(p, l, row, today))
	}
	v.Summary, v.SummaryError = reviewSummary(p, r.URL.Query())
	ui.Render(w, r, status, reviewPage(v))
}

// judgedLabels are the labels of the ranking proposal id is judged by
// (domain.JudgedBy): for a ranking in review, its proposed methodology's.
func (d *Desk) judgedLabels(ctx context.Context, id string) (rankingLabels, error) {
	dp, err := d.cmd.Proposal(ctx, id)
	if err != nil {
		return rankingLabels{}, err
	}
	j, err := d.cmd.JudgedBy(ctx, dp)
	return rankingLabels{j.Ranking}, err
}

// problemKey names an evidence problem's label.
func problemKey(e string) string {
	if e == "" {
		return "any"
	}
	return e
}

// reviewRowOf puts one proposal of the queue into words.
func reviewRowOf(p ui.Page, l rankingLabels, row projections.ReviewRow, today string) reviewRow {
	out := reviewRow{ID: row.ID, Href: ProposalPath(row.ID), Title: row.Title, Entry: row.EntryName, Ranking: row.Ranking,
		Author: row.Author, Status: string(row.Status), StatusText: p.StatusLabel(row.Status), Revision: row.Revision,
		Quorum: quorumSentence(p, l, row.Quorum)}
	for _, c := range row.Changes {
		out.Changes = append(out.Changes, reviewChangeText(p, l, c))
	}
	for _, e := range row.Evidence {
		ev := reviewEvidence{ID: e.ID, Claim: ui.BilingualOf(p, e.Claim), Excerpt: clip(e.Excerpt, 240), Source: e.SourceURL,
			SourceLabel: sourceLabel(e), CaptureState: string(e.Capture.State),
			Stale: e.StaleAfter != "" && e.StaleAfter < today}
		if e.Capture.State == domain.CaptureNone && e.SourceURL != "" {
			ev.CaptureState = "pending" // the worker has not answered yet
		}
		ev.Capture = p.T("desk.review.capture." + ev.CaptureState)
		switch {
		case e.Capture.State != domain.CaptureDone || !e.Capture.QuoteChecked:
			ev.QuoteState = "unchecked"
		case e.Capture.QuoteFound:
			ev.QuoteState = "found"
		default:
			ev.QuoteState = "not_found"
		}
		ev.Quote = p.T("desk.review.quote." + ev.QuoteState)
		out.Evidence = append(out.Evidence, ev)
	}
	return out
}

// reviewChangeText is one change compactly: "Price: 4 → 7".
func reviewChangeText(p ui.Page, l rankingLabels, c projections.ChangeView) string {
	from, to := "—", "—"
	if strings.HasPrefix(c.Target, "attr:") {
		from, to = orDash(strings.Join(c.FromTags, listSep(p.Lang))), orDash(strings.Join(c.ToTags, listSep(p.Lang)))
	} else {
		if c.FromScore != nil {
			from = strconv.Itoa(*c.FromScore)
		}
		if c.ToScore != nil {
			to = strconv.Itoa(*c.ToScore)
		}
	}
	return p.T("desk.review.change", l.target(p.Lang, c.Target), from, to)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// sourceLabel names an evidence item's source: its host, or its named document.
func sourceLabel(e projections.EvidenceView) string {
	if u, err := url.Parse(e.SourceURL); err == nil && u.Host != "" {
		return u.Host
	}
	return e.SourceName
}

// clip shortens s to at most n characters, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
