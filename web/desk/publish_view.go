package desk

import (
	"cmp"
	"context"
	"net/http"
	"slices"
	"strconv"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// PublishChoice is the subset of one ranking's proposals a publisher chose.
type PublishChoice struct {
	Ranking   string // "" when nothing was chosen: every ranking previews all
	Proposals []string
	All       bool // Ranking previews all, as when nothing was chosen (?all=1: its pages)
	// Except are the proposals left out of all (unticked across the
	// pages: ?x=…).
	Except []string
	Failed bool // publishing this choice just failed
	// Scheduling: the failure was the schedule form's, not "Publish now".
	Scheduling bool
	// Already is the edition that published the failed form's preview (0:
	// none): the form was posted again, and is told where it went.
	Already int
	// Previewing: the failure was the preview form's; Revoking: a
	// preview's revoke button's.
	Previewing, Revoking bool
}

// publishView is the model of the publish page.
type publishView struct {
	ui.Page
	Rankings []publishRanking
	Error    string // a failed publish of no ranking on the page (an unknown slug)
}

// publishRanking is one ranking's section: its candidates, the preview of
// the chosen ones, and the form that publishes that preview.
type publishRanking struct {
	Slug       string
	Title      string
	Edition    int                // the latest published edition (0: none yet)
	Candidates []publishCandidate // this page's
	Ready      int                // cross-validated proposals in all
	Chosen     []string           // the proposals the preview covers
	// Explicit: the publisher chose the proposals (?p=…); otherwise the
	// preview covers every cross-validated proposal the publisher may
	// publish but those excepted, and the forms post "all" instead of
	// thousands of ids.
	Explicit bool
	// Unchosen are the proposals the publisher may publish but did not
	// choose: unticked in "all", or not ticked in an explicit choice.
	Unchosen    []string
	Page, Pages int // the page of the lists shown, of how many
	// CandidatePages: the pages of the candidates alone.
	CandidatePages int
	// Carried is the choice on the candidates' other pages, which the
	// select form carries while it shows one page: the chosen proposals
	// (Explicit) or those excepted from all.
	Carried      []string
	Preview      *publishPreview
	PreviewError string       // why no preview could be made
	Already      int          // the edition the failed form's preview became (0: none)
	Form         ui.FormState // the publish form after a failed submit
	Schedule     ui.FormState // the schedule form after a failed submit
	Zones        []zoneOption // the schedule form's zones
	PreviewForm  ui.FormState // the preview form after a failed submit
	RevokeForm   ui.FormState // a revoke button after a failed submit
	Previews     []deskPreview
	PreviewTotal int // the ranking's previews in all
}

// publishCandidate is a cross-validated proposal with its checkbox.
type publishCandidate struct {
	ID        string
	Href      string
	Title     string
	Entry     string
	Author    string
	Revision  int
	Approvers int
	Checked   bool
	Own       bool // the publisher authored or revised it: another publisher must publish it
}

// publishPreview is the next edition as the domain computes it.
type publishPreview struct {
	Number     int
	Hash       string
	Size       publishSize
	Moves      []publishRow // the largest rank moves
	Rows       []publishRow // this page's
	Changes    []publishChange
	NewEntries []publishNewEntry
	Pages      int // of the longest list
}

// publishRow is one entry of the new ranking with its move.
type publishRow struct {
	Slug     string
	Rank     int
	Name     string
	Category string
	Href     string
	Total    string
	Before   string // the total before, when it changed; "" otherwise
	Move     string // "▲2", "▼1", "new", "" when unchanged
	MoveKind string // "up", "down", "new", "same"
}

// publishChange is one published value: from → to, with its proposal.
type publishChange struct {
	Proposal string
	Title    string // the proposal's title (its id when not found)
	Href     string
	Entry    string
	Target   string // the target id, "score:price"
	Label    string // the criterion or attribute in words
	From, To string
}

// publishNewEntry is an entry the edition makes public.
type publishNewEntry struct {
	Slug     string
	Name     string
	Category string
	Proposal string
	Href     string
}

// publishView builds the page for choice; st is the state of the failed
// publish form of choice.Ranking, if any.
func (d *Desk) publishView(r *http.Request, choice PublishChoice, st ui.FormState) (publishView, error) {
	ctx := r.Context()
	v := publishView{Page: ui.PageOf(r, "publish.title", "publish")}
	rankings, err := d.read.Rankings(ctx)
	if err != nil {
		return v, err
	}
	me := v.User.Username
	page := pageParam(r.URL.Query())
	for _, rk := range rankings {
		pr := publishRanking{Slug: rk.Slug, Title: rk.Title.In(v.Lang), Edition: rk.Edition, Page: 1}
		// Every cross-validated proposal takes part in the choice (which
		// proposals the preview covers, what the forms carry), but only one
		// page of them is shown: the others are read as ids alone.
		ready, err := d.read.ProposalRefs(ctx, rk.Slug, domain.StatusCrossValidated, me)
		if err != nil {
			return v, err
		}
		chosenHere := choice.Ranking == rk.Slug
		pr.Explicit = chosenHere && !choice.All
		if chosenHere {
			pr.Page = page
		}
		pr.Ready = len(ready)
		picked := choice.picks(chosenHere)
		all := make([]publishCandidate, len(ready))
		for i, p := range ready {
			c := publishCandidate{ID: p.ID, Own: p.Own}
			c.Checked = !c.Own && picked(p.ID)
			switch {
			case c.Checked:
				pr.Chosen = append(pr.Chosen, p.ID)
			case !c.Own:
				pr.Unchosen = append(pr.Unchosen, p.ID)
			}
			all[i] = c
		}
		var shown []publishCandidate
		shown, pr.CandidatePages = pageOf(all, pr.Page)
		pr.Carried = carried(all, shown, pr.Explicit)
		if pr.Candidates, err = d.candidates(ctx, shown); err != nil {
			return v, err
		}
		if chosenHere && choice.Failed {
			pr.Already = choice.Already
			switch {
			case choice.Scheduling:
				pr.Schedule = st
			case choice.Previewing:
				pr.PreviewForm = st
			case choice.Revoking:
				pr.RevokeForm = st
			default:
				pr.Form = st
			}
		}
		pr.Zones = scheduleZones(v.Lang, httpx.Now(ctx))
		if pr.Previews, pr.PreviewTotal, err = d.rankingPreviews(ctx, rk.Slug); err != nil {
			return v, err
		}
		switch {
		case len(pr.Chosen) > 0:
			seq, _ := d.read.Checkpoint()
			chosen := pr.Chosen
			p, err := d.previews.preview(ctx, rk.Slug, previewKey(rk.Slug, seq, chosen),
				func(ctx context.Context) (domain.EditionPreview, *domain.Ranking, error) {
					return d.cmd.PreviewEdition(ctx, rk.Slug, chosen)
				})
			if err != nil {
				if httpx.Status(err) >= 500 {
					return v, err
				}
				pr.PreviewError = httpx.Message(v.Lang, err)
				break
			}
			pr.Preview = previewOf(p, rankingWordsOf(p.def, v.Lang), v.Lang, pr.Page)
			if err := d.titleChanges(ctx, pr.Preview); err != nil {
				return v, err
			}
		case len(pr.Candidates) > 0 && chosenHere:
			pr.PreviewError = httpx.Message(v.Lang, domain.ErrNothingToPublish)
		}
		pr.Pages = pr.CandidatePages
		if pr.Preview != nil {
			pr.Pages = max(pr.Pages, pr.Preview.Pages)
		}
		v.Rankings = append(v.Rankings, pr)
	}
	if choice.Failed && !slices.ContainsFunc(v.Rankings, func(pr publishRanking) bool { return pr.Slug == choice.Ranking }) {
		v.Error = st.Summary
	}
	return v, nil
}

// titleChanges names the preview page's changes by their proposals'
// titles: a publisher reads "Import: Qingjiao Cloud", not an id.
func (d *Desk) titleChanges(ctx context.Context, pv *publishPreview) error {
	ids := make([]string, 0, len(pv.Changes))
	for _, c := range pv.Changes {
		ids = append(ids, c.Proposal)
	}
	slices.Sort(ids)
	rows, err := d.read.ProposalsByID(ctx, slices.Compact(ids))
	if err != nil {
		return err
	}
	titles := make(map[string]string, len(rows))
	for _, r := range rows {
		titles[r.ID] = r.Title
	}
	for i, c := range pv.Changes {
		pv.Changes[i].Title = cmp.Or(titles[c.Proposal], c.Proposal)
	}
	return nil
}

// candidates fills in the shown candidates from their proposals' rows.
func (d *Desk) candidates(ctx context.Context, shown []publishCandidate) ([]publishCandidate, error) {
	ids := make([]string, len(shown))
	for i, c := range shown {
		ids[i] = c.ID
	}
	rows, err := d.read.ProposalsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]publishCandidate, 0, len(rows))
	for i, j := 0, 0; i < len(shown) && j < len(rows); i++ {
		if shown[i].ID != rows[j].ID {
			continue // gone since the ids were read
		}
		c, p := shown[i], rows[j]
		c.Href, c.Title, c.Entry, c.Author = proposalURL(p.ID), p.Title, p.Entry, p.Author
		c.Revision, c.Approvers = p.Revision, len(p.Quorum.Approvers)
		out = append(out, c)
		j++
	}
	return out, nil
}

// previewOf puts one page of an edition preview into words: the new
// ranking with rank moves and totals before → after, the changes, the new
// entries, and the largest moves above them.
func previewOf(p *previewed, w rankingWords, lang string, page int) *publishPreview {
	pv, ix := p.pv, p.ix
	out := &publishPreview{Number: pv.Number, Hash: pv.Hash, Size: publishSize{Proposals: len(pv.Proposals),
		NewEntries: len(pv.NewEntries), Changes: len(pv.Changes), Entries: len(pv.After.Entries)}}
	row := func(i int) publishRow {
		e := pv.After.Entries[i]
		r := publishRow{Slug: e.Slug, Rank: e.Rank, Name: e.Name.In(lang), Category: w.Category(e.Category),
			Href: entryURL(pv.Ranking, e.Slug), Total: totalText(e.Total), MoveKind: "same"}
		was, ok := ix.before[e.Slug]
		switch {
		case !ok:
			r.Move, r.MoveKind = i18n.T(lang, "publish.move.new"), "new"
		case was.rank > e.Rank:
			r.Move, r.MoveKind = "▲"+strconv.Itoa(was.rank-e.Rank), "up"
		case was.rank < e.Rank:
			r.Move, r.MoveKind = "▼"+strconv.Itoa(e.Rank-was.rank), "down"
		}
		if ok && was.total != e.Total {
			r.Before = totalText(was.total)
		}
		return r
	}
	for _, i := range ix.moves {
		out.Moves = append(out.Moves, row(i))
	}
	from, rowPages := pageBounds(len(pv.After.Entries), page)
	for i := from; i < min(from+publishPageSize, len(pv.After.Entries)); i++ {
		out.Rows = append(out.Rows, row(i))
	}
	changes, changePages := pageOf(pv.Changes, page)
	news, newPages := pageOf(pv.NewEntries, page)
	out.Pages = max(rowPages, changePages, newPages)
	name := func(slug string) string {
		if i, ok := ix.after[slug]; ok {
			return pv.After.Entries[i].Name.In(lang)
		}
		return ""
	}
	for _, c := range changes {
		out.Changes = append(out.Changes, publishChange{Proposal: c.Proposal, Href: proposalURL(c.Proposal),
			Entry: name(c.Entry), Target: c.Target, Label: w.Target(c.Target),
			From: w.Value(c.Target, c.FromScore, c.FromTags), To: w.Value(c.Target, c.ToScore, c.ToTags)})
	}
	for _, ne := range news {
		out.NewEntries = append(out.NewEntries, publishNewEntry{Slug: ne.Slug, Name: ne.Name.In(lang),
			Category: w.Category(ne.Category), Proposal: ne.Proposal, Href: proposalURL(ne.Proposal)})
	}
	return out
}
