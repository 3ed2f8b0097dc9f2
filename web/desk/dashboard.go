package desk

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// dashboardView is the model of the desk's start page: one section per queue.
type dashboardView struct {
	ui.Page
	CanPropose bool
	Sections   []queueSection
}

// queueSection is one queue of the dashboard.
type queueSection struct {
	ID    string // "my-drafts", "my-in-review", "awaiting-review", "ready-to-publish", "upcoming", "stale", "reverify", "recent"
	Title string
	Empty string // shown when the queue is empty
	Count int
	Items []queueItem
	Link  string // a page listing the whole queue ("" for none)
	Label string // the link's words
	Pager ui.Pager
}

// queueItem is one row of a queue: a proposal, a stale evidence item or an edition.
type queueItem struct {
	Href   string // the proposal (or edition) it opens
	Title  string
	Detail string // entry, revision, author…
	Status string // status label ("" for none)
	Badge  string // the badge's class suffix
	Note   string // the quorum in words, or why the item is listed
	Extra  string // a second link (the entry page), "" for none
	XLabel string
	Kind   string // the proposal's kind: "" for an entry's, "methodology"
	Action string // a third link: the next step (a re-verification proposal), "" for none
	ALabel string
	// Requested: it is the user's turn on it (its attention set holds
	// them): a review asked of them, or a veto or comment on their own.
	Requested bool
	Cancel    *scheduleCancel // an upcoming edition's cancel button, nil for none
	Overdue   string          // the reviewers overdue on it, in words; "" for none
}

// serveDashboard shows the signed-in user's queues, each a page at a time.
func (d *Desk) serveDashboard(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p := ui.PageOf(r, "desk.dashboard.title", "dashboard")
	user := p.User.Username
	labels := newLabelCache(d.read)
	labels.entry = d.entryName
	v := dashboardView{Page: p, CanPropose: p.Has(domain.RoleEditor)}
	fail := func(err error) { ui.Fail(w, r, err) }
	// proposals reads one page of a proposal queue; the items its query
	// lists first are marked with note (the user's turn).
	proposals := func(q projections.QueueQuery, titleKey, emptyKey string, withQuorum bool, note string) (queueSection, error) {
		sec := queueSection{ID: string(q.Queue), Title: p.T(titleKey), Empty: p.T(emptyKey)}
		q.User, q.PerPage = user, queueRows
		page, err := d.queuePage(ctx, r.URL, sec.ID, &q)
		if err != nil {
			return sec, err
		}
		sec.Count = page.Total
		offset := (q.Page - 1) * queueRows
		for i, ps := range page.Items {
			it := proposalItem(ctx, p, labels, ps, withQuorum)
			if offset+i < page.Firsts {
				it.Requested = true
				it.Note = p.T(note) + " · " + it.Note
			}
			sec.Items = append(sec.Items, it)
		}
		sec.Pager = queuePager(r.URL, sec.ID, page.Total, q.Page)
		if q.Queue == projections.QueueMyInReview {
			return sec, d.markOverdue(ctx, p, page.Items, sec.Items)
		}
		return sec, nil
	}
	drafts, err := proposals(projections.QueueQuery{Queue: projections.QueueMyDrafts}, "desk.queue.my_drafts", "desk.queue.my_drafts.empty", false, "")
	if err != nil {
		fail(err)
		return
	}
	mine, err := proposals(projections.QueueQuery{Queue: projections.QueueMyInReview},
		"desk.queue.my_in_review", "desk.queue.my_in_review.empty", true, "desk.queue.your_turn")
	if err != nil {
		fail(err)
		return
	}
	if p.Has(domain.RoleEditor) || drafts.Count+mine.Count > 0 {
		v.Sections = append(v.Sections, drafts, mine)
	}
	if p.Has(domain.RoleReviewer) {
		sec, err := proposals(projections.QueueQuery{Queue: projections.QueueAwaitingReview},
			"desk.queue.awaiting_review", "desk.queue.awaiting_review.empty", true, "desk.queue.requested")
		if err != nil {
			fail(err)
			return
		}
		v.Sections = append(v.Sections, sec)
	}
	if p.Has(domain.RolePublisher) {
		sec, err := proposals(projections.QueueQuery{Queue: projections.QueueReadyToPublish}, "desk.queue.ready", "desk.queue.ready.empty", false, "")
		if err != nil {
			fail(err)
			return
		}
		sec.Link, sec.Label = paths.Publish, p.T("desk.queue.ready.publish")
		v.Sections = append(v.Sections, sec)
	}
	up, err := d.upcomingSection(ctx, p, labels)
	if err != nil {
		fail(err)
		return
	}
	pageSection(r.URL, &up)
	stale, err := d.staleSection(ctx, p, labels, r.URL)
	if err != nil {
		fail(err)
		return
	}
	v.Sections = append(v.Sections, up, stale)
	rv, err := d.reverifySection(ctx, p, labels)
	if err != nil {
		fail(err)
		return
	}
	if rv != nil {
		pageSection(r.URL, rv)
		v.Sections = append(v.Sections, *rv)
	}
	eds, err := d.read.Editions(ctx, "", recentEditions)
	if err != nil {
		fail(err)
		return
	}
	recent := recentSection(ctx, p, labels, eds)
	pageSection(r.URL, &recent)
	v.Sections = append(v.Sections, recent)
	ui.Render(w, r, http.StatusOK, dashboardPage(v))
}

// queueRows is how many items a dashboard queue shows a page.
const queueRows = 25

// recentEditions is how many of the latest editions the dashboard lists.
const recentEditions = 5

// queueParam is the parameter naming a queue's page (?page-awaiting-review=2),
// so each queue pages alone and the others keep theirs.
func queueParam(id string) string { return "page-" + id }

// requestedQueuePage reads a queue's page from u: 1 when absent or not a
// positive number.
func requestedQueuePage(u *url.URL, id string) int {
	n, err := strconv.Atoi(u.Query().Get(queueParam(id)))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// queuePage reads the page of q that u asks for; a page past the last
// reads the last, which q.Page then names. With several queues on one
// page, a 404 for one stale number would hide the others.
func (d *Desk) queuePage(ctx context.Context, u *url.URL, id string, q *projections.QueueQuery) (projections.QueuePage, error) {
	q.Page = requestedQueuePage(u, id)
	page, err := d.read.QueueProposals(ctx, *q)
	if last := max(1, (page.Total+queueRows-1)/queueRows); err == nil && q.Page > last {
		q.Page = last
		page, err = d.read.QueueProposals(ctx, *q)
	}
	return page, err
}

// queuePager pages a queue of total items, on page n; its links keep the
// other queues' pages and come back to the queue.
func queuePager(u *url.URL, id string, total, n int) ui.Pager {
	param := queueParam(id)
	return ui.NewPager(total, n, queueRows, func(k int) string {
		q := u.Query()
		q.Del(param)
		if k > 1 {
			q.Set(param, strconv.Itoa(k))
		}
		return (&url.URL{Path: u.Path, RawQuery: q.Encode(), Fragment: "queue-" + id}).String()
	})
}

// pageSection keeps one page of a queue read whole (the few upcoming
// editions, sources to re-verify, the latest editions); a page past the
// last shows the last.
func pageSection(u *url.URL, sec *queueSection) {
	n := min(requestedQueuePage(u, sec.ID), max(1, (len(sec.Items)+queueRows-1)/queueRows))
	sec.Pager = queuePager(u, sec.ID, len(sec.Items), n)
	if sec.Pager.Total > 0 {
		sec.Items = sec.Items[sec.Pager.From-1 : sec.Pager.To]
	}
}

// proposalItem describes a proposal in a queue.
func proposalItem(ctx context.Context, p ui.Page, labels *labelCache, ps projections.ProposalSummary, withQuorum bool) queueItem {
	it := queueItem{
		Href:   ProposalPath(ps.ID),
		Title:  ps.Title,
		Detail: p.T("desk.item.detail", entryLabel(labels.entryName(ctx, p.Lang, ps.Ranking, ps.Entry, ps.EntryName), ps.Entry), ps.Revision, ps.Author),
		Status: p.StatusLabel(ps.Status),
		Badge:  string(ps.Status),
	}
	if ps.NewEntry {
		it.Detail += " · " + p.T("desk.item.new_entry")
	}
	if ps.Kind == domain.KindMethodology {
		// The ranking stands where the entry would.
		kind := "desk.item.methodology"
		if ps.NewRanking {
			kind = "desk.item.new_ranking"
		}
		rk := cmp.Or(labels.get(ctx, ps.Ranking).title(p.Lang), ps.Ranking)
		it.Detail = p.T("desk.item.detail", rk, ps.Revision, ps.Author) + " · " + p.T(kind)
		it.Kind = ps.Kind
	}
	if withQuorum {
		it.Note = quorumSentence(p, labels.get(ctx, ps.Ranking), ps.Quorum)
	}
	return it
}

// staleSection lists, a page at a time, the published values whose
// evidence is past its validity.
func (d *Desk) staleSection(ctx context.Context, p ui.Page, labels *labelCache, u *url.URL) (queueSection, error) {
	sec := queueSection{ID: "stale", Title: p.T("desk.queue.stale"), Empty: p.T("desk.queue.stale.empty")}
	now := httpx.Now(ctx)
	n := requestedQueuePage(u, sec.ID)
	stale, total, err := d.read.StaleEvidencePage(ctx, now, n, queueRows)
	if last := max(1, (total+queueRows-1)/queueRows); err == nil && n > last {
		n = last
		stale, total, err = d.read.StaleEvidencePage(ctx, now, n, queueRows)
	}
	if err != nil {
		return sec, err
	}
	sec.Count = total
	for _, st := range stale {
		lb := labels.get(ctx, st.Ranking)
		sec.Items = append(sec.Items, queueItem{
			Href:   ProposalPath(st.Evidence.Proposal),
			Title:  entryLabel(labels.entryName(ctx, p.Lang, st.Ranking, st.Entry, st.EntryName), st.Entry) + " · " + lb.targets(p.Lang, st.Targets),
			Detail: p.T("desk.stale.detail", st.Evidence.ID, st.Evidence.Claim.In(p.Lang)),
			Note:   p.T("desk.stale.since", p.Day(st.Evidence.StaleAfter)),
			Badge:  "stale",
			Status: p.T("desk.evidence.stale"),
			Extra:  entryPath(st.Ranking, st.Entry),
			XLabel: p.T("desk.stale.entry"),
		})
	}
	sec.Pager = queuePager(u, sec.ID, total, n)
	return sec, nil
}

// recentSection lists the latest editions.
func recentSection(ctx context.Context, p ui.Page, labels *labelCache, eds []projections.EditionSummary) queueSection {
	sec := queueSection{ID: "recent", Title: p.T("desk.queue.recent"), Empty: p.T("desk.queue.recent.empty"), Count: len(eds)}
	for _, ed := range eds {
		it := queueItem{
			Href:   "/r/" + ed.Ranking + "/editions/" + strconv.Itoa(ed.Number),
			Title:  p.T("desk.edition.title", cmp.Or(labels.get(ctx, ed.Ranking).title(p.Lang), ed.Ranking), ed.Number),
			Detail: p.T("desk.edition.detail", p.DateTime(parseTime(ed.PublishedAt)), ed.Publisher, p.Plural("count.changes", ed.Changes)),
			Note:   ed.Note,
			Badge:  "published",
			Status: p.StatusLabel(domain.StatusPublished),
		}
		sec.Items = append(sec.Items, it)
	}
	return sec
}

// entryName names an entry in lang from the event store's registration
// (the queues carry only the Chinese name); fallback when it is not found.
func (d *Desk) entryName(ctx context.Context, lang, ranking, entry, fallback string) string {
	if e := d.registeredEntry(ctx, ranking, entry); e != nil {
		return cmp.Or(e.Name.In(lang), fallback)
	}
	return fallback
}

// entryLabel names an entry by its name, with the slug when the name is missing.
func entryLabel(name, slug string) string {
	if name == "" || name == slug {
		return slug
	}
	return name + " (" + slug + ")"
}

// entryPath is an entry's page on the desk.
func entryPath(ranking, entry string) string { return "/desk/entries/" + ranking + "/" + entry }
