package desk

import (
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
		ready, err := d.read.ProposalsWithStatus(ctx, rk.Slug, domain.StatusCrossValidated)
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
		for _, p := range ready {
			c := publishCandidate{ID: p.ID, Href: proposalURL(p.ID), Title: p.Title, Entry: p.Entry,
				Author: p.Author, Revision: p.Revision, Approvers: len(p.Quorum.Approvers),
				Own: p.Author == me || slices.Contains(p.Revisers, me)}
			c.Checked = !c.Own && picked(p.ID)
			switch {
			case c.Checked:
				pr.Chosen = append(pr.Chosen, p.ID)
			case !c.Own:
				pr.Unchosen = append(pr.Unchosen, p.ID)
			}
			pr.Candidates = append(pr.Candidates, c)
		}
		if chosenHere && choice.Failed {
			pr.Already = choice.Already
			if choice.Scheduling {
				pr.Schedule = st
			} else {
				pr.Form = st
			}
		}
		pr.Zones = scheduleZones(v.Lang, httpx.Now(ctx))
		switch {
		case len(pr.Chosen) > 0:
			seq, _ := d.read.Checkpoint()
			chosen := pr.Chosen
			pv, def, err := d.previews.preview(ctx, rk.Slug, previewKey(rk.Slug, seq, chosen),
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
			pr.Preview = previewOf(pv, rankingWordsOf(def, v.Lang), v.Lang, pr.Page)
		case len(pr.Candidates) > 0 && chosenHere:
			pr.PreviewError = httpx.Message(v.Lang, domain.ErrNothingToPublish)
		}
		all := pr.Candidates
		pr.Candidates, pr.CandidatePages = pageOf(all, pr.Page)
		pr.Pages = pr.CandidatePages
		pr.Carried = carried(all, pr.Candidates, pr.Explicit)
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

// previewOf puts an edition preview into words: the new ranking with rank
// moves and totals before → after, every change, every new entry.
func previewOf(pv domain.EditionPreview, w rankingWords, lang string, page int) *publishPreview {
	out := &publishPreview{Number: pv.Number, Hash: pv.Hash, Size: publishSize{Proposals: len(pv.Proposals),
		NewEntries: len(pv.NewEntries), Changes: len(pv.Changes), Entries: len(pv.After.Entries)}}
	before := map[string]int{}
	beforeTotal := map[string]int{}
	for _, e := range pv.Before.Entries {
		before[e.Slug], beforeTotal[e.Slug] = e.Rank, e.Total
	}
	names := map[string]string{}
	for _, e := range pv.After.Entries {
		names[e.Slug] = e.Name.In(lang)
		row := publishRow{Slug: e.Slug, Rank: e.Rank, Name: names[e.Slug], Category: w.Category(e.Category),
			Href: entryURL(pv.Ranking, e.Slug), Total: totalText(e.Total), MoveKind: "same"}
		was, ok := before[e.Slug]
		switch {
		case !ok:
			row.Move, row.MoveKind = i18n.T(lang, "publish.move.new"), "new"
		case was > e.Rank:
			row.Move, row.MoveKind = "▲"+strconv.Itoa(was-e.Rank), "up"
		case was < e.Rank:
			row.Move, row.MoveKind = "▼"+strconv.Itoa(e.Rank-was), "down"
		}
		if ok && beforeTotal[e.Slug] != e.Total {
			row.Before = totalText(beforeTotal[e.Slug])
		}
		out.Rows = append(out.Rows, row)
	}
	out.Moves = biggestMoves(out.Rows, before)
	var rowPages int
	out.Rows, rowPages = pageOf(out.Rows, page)
	changes, changePages := pageOf(pv.Changes, page)
	news, newPages := pageOf(pv.NewEntries, page)
	out.Pages = max(rowPages, changePages, newPages)
	for _, c := range changes {
		out.Changes = append(out.Changes, publishChange{Proposal: c.Proposal, Href: proposalURL(c.Proposal),
			Entry: names[c.Entry], Target: c.Target, Label: w.Target(c.Target),
			From: w.Value(c.Target, c.FromScore, c.FromTags), To: w.Value(c.Target, c.ToScore, c.ToTags)})
	}
	for _, ne := range news {
		out.NewEntries = append(out.NewEntries, publishNewEntry{Slug: ne.Slug, Name: ne.Name.In(lang),
			Category: w.Category(ne.Category), Proposal: ne.Proposal, Href: proposalURL(ne.Proposal)})
	}
	return out
}
