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
}

// serveDashboard shows the signed-in user's queues.
func (d *Desk) serveDashboard(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p := ui.PageOf(r, "desk.dashboard.title", "dashboard")
	q, err := d.read.Queues(ctx, p.User.Username, httpx.Now(ctx))
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	labels := newLabelCache(d.read)
	labels.entry = d.entryName
	v := dashboardView{Page: p, CanPropose: p.Has(domain.RoleEditor)}
	proposals := func(id, titleKey, emptyKey string, list []projections.ProposalSummary, withQuorum bool) queueSection {
		sec := queueSection{ID: id, Title: p.T(titleKey), Empty: p.T(emptyKey), Count: len(list)}
		for _, ps := range list {
			sec.Items = append(sec.Items, proposalItem(ctx, p, labels, ps, withQuorum))
		}
		return sec
	}
	if p.Has(domain.RoleEditor) || len(q.MyDrafts)+len(q.MyInReview) > 0 {
		mine := proposals("my-in-review", "desk.queue.my_in_review", "desk.queue.my_in_review.empty", q.MyInReview, true)
		if err := d.authorTurnFirst(ctx, p, p.User.Username, &mine, q.MyInReview); err != nil {
			ui.Fail(w, r, err)
			return
		}
		v.Sections = append(v.Sections,
			proposals("my-drafts", "desk.queue.my_drafts", "desk.queue.my_drafts.empty", q.MyDrafts, false), mine)
	}
	if p.Has(domain.RoleReviewer) {
		sec := proposals("awaiting-review", "desk.queue.awaiting_review", "desk.queue.awaiting_review.empty", q.AwaitingReview, true)
		if err := d.requestedFirst(ctx, p, p.User.Username, &sec, q.AwaitingReview); err != nil {
			ui.Fail(w, r, err)
			return
		}
		v.Sections = append(v.Sections, sec)
	}
	if p.Has(domain.RolePublisher) {
		sec := proposals("ready-to-publish", "desk.queue.ready", "desk.queue.ready.empty", q.ReadyToPublish, false)
		sec.Link, sec.Label = paths.Publish, p.T("desk.queue.ready.publish")
		v.Sections = append(v.Sections, sec)
	}
	up, err := d.upcomingSection(ctx, p, labels)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	v.Sections = append(v.Sections, up, staleSection(ctx, p, labels, q.Stale))
	rv, err := d.reverifySection(ctx, p, labels)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	if rv != nil {
		v.Sections = append(v.Sections, *rv)
	}
	v.Sections = append(v.Sections, recentSection(ctx, p, labels, q.Recent))
	for i := range v.Sections {
		pageSection(r.URL, &v.Sections[i])
	}
	ui.Render(w, r, http.StatusOK, dashboardPage(v))
}

// queueRows is how many items a dashboard queue shows a page.
const queueRows = 25

// pageSection keeps one page of a queue's items, the page its own
// parameter names (?page-awaiting-review=2), so each queue pages alone and
// the others keep theirs; a page past the last shows the last.
func pageSection(u *url.URL, sec *queueSection) {
	param := "page-" + sec.ID
	n, err := strconv.Atoi(u.Query().Get(param))
	if err != nil || n < 1 {
		n = 1
	}
	n = min(n, max(1, (len(sec.Items)+queueRows-1)/queueRows))
	sec.Pager = ui.NewPager(len(sec.Items), n, queueRows, func(k int) string {
		q := u.Query()
		q.Del(param)
		if k > 1 {
			q.Set(param, strconv.Itoa(k))
		}
		return (&url.URL{Path: u.Path, RawQuery: q.Encode(), Fragment: "queue-" + sec.ID}).String()
	})
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

// staleSection lists published values whose evidence is past its validity.
func staleSection(ctx context.Context, p ui.Page, labels *labelCache, stale []projections.StaleEvidence) queueSection {
	sec := queueSection{ID: "stale", Title: p.T("desk.queue.stale"), Empty: p.T("desk.queue.stale.empty"), Count: len(stale)}
	for _, st := range stale {
		lb := labels.get(ctx, st.Ranking)
		sec.Items = append(sec.Items, queueItem{
			Href:   ProposalPath(st.Evidence.Proposal),
			Title:  entryLabel(labels.entryName(ctx, p.Lang, st.Ranking, st.Entry, st.EntryName), st.Entry) + " · " + lb.target(p.Lang, st.Target),
			Detail: p.T("desk.stale.detail", st.Evidence.ID, st.Evidence.Claim),
			Note:   p.T("desk.stale.since", p.Day(st.Evidence.StaleAfter)),
			Badge:  "stale",
			Status: p.T("desk.evidence.stale"),
			Extra:  entryPath(st.Ranking, st.Entry),
			XLabel: p.T("desk.stale.entry"),
		})
	}
	return sec
}

// recentSection lists the latest editions.
func recentSection(ctx context.Context, p ui.Page, labels *labelCache, eds []projections.EditionSummary) queueSection {
	sec := queueSection{ID: "recent", Title: p.T("desk.queue.recent"), Empty: p.T("desk.queue.recent.empty"), Count: len(eds)}
	for _, ed := range eds {
		it := queueItem{
			Href:   "/r/" + ed.Ranking + "/editions/" + strconv.Itoa(ed.Number),
			Title:  p.T("desk.edition.title", cmp.Or(labels.get(ctx, ed.Ranking).title(p.Lang), ed.Ranking), ed.Number),
			Detail: p.T("desk.edition.detail", p.DateTime(parseTime(ed.PublishedAt)), ed.Publisher, ed.Changes),
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
