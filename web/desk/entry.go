package desk

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// entryView is the model of the desk's entry page: what is published,
// on what evidence, what is proposed, and what each edition changed.
type entryView struct {
	ui.Page
	Ranking      string
	RankingTitle string
	Slug         string
	Name         string
	Category     string
	Website      string
	Description  string
	Published    bool
	Rank         int
	Total        string
	Edition      int
	Scores       []entryScoreView
	Attributes   []entryAttrView
	Open         []entryProposalView // proposals still open
	Proposals    []entryProposalView // every proposal, newest first
	Editions     []entryEditionView  // editions that changed the entry, newest first
	History      []entryRankView
	ProposeURL   string // "" when the user may not propose (not an editor)
	PublicURL    string
	AuditURL     string
	Conflicts    conflictBox
}

// entryScoreView is one criterion: its published score and evidence.
type entryScoreView struct {
	Criterion   string
	Label       string
	Weight      int
	Scored      bool
	Score       int
	Proposal    string
	ProposalURL string
	Edition     int
	Rationale   ui.Bilingual
	Evidence    []entryEvidenceView
}

// entryAttrView is a published attribute with its evidence.
type entryAttrView struct {
	Key         string
	Label       string
	Tags        string
	ProposalURL string
	Edition     int
	Evidence    []entryEvidenceView
}

// entryEvidenceView is one evidence item behind a published value.
type entryEvidenceView struct {
	ID          string
	ProposalURL string
	Claim       ui.Bilingual
	SourceURL   string
	SourceName  string
	Section     string
	Excerpt     string
	Observed    string
	StaleAfter  string // "" when it does not expire
	Stale       bool
	Tier        ui.Tier
	Drift       string // what the latest re-check found at a changed or dead source; "" otherwise
	// ReverifyURL opens a re-verification proposal for a changed or dead
	// source, for editors; "" otherwise.
	ReverifyURL string
	// ChangedURL shows the quote looked for in the version a re-check
	// found changed (PassagePath); "" otherwise.
	ChangedURL string
	changed    string // the same link, whether or not the desk can serve it
}

// entryProposalView is a proposal in the entry's lists.
type entryProposalView struct {
	ID      string
	URL     string
	Title   string
	Author  string
	Status  string
	Label   string
	Open    bool
	Updated string
}

// entryEditionView is an edition that changed the entry.
type entryEditionView struct {
	Number  int
	At      string
	URL     string
	Changes []entryChangeView
}

// entryChangeView is one value an edition changed.
type entryChangeView struct {
	Label       string
	From, To    string
	Proposal    string
	ProposalURL string
}

// entryRankView is the entry's overall rank in one edition.
type entryRankView struct {
	Edition int
	Rank    int
	Total   string
}

// serveEntry shows an entry to the desk.
func (d *Desk) serveEntry(w http.ResponseWriter, r *http.Request) {
	d.renderEntry(w, r, http.StatusOK, ui.FormState{})
}

// renderEntry shows the entry in the request's path with status; st is
// the conflict form's state after a failed declaration.
func (d *Desk) renderEntry(w http.ResponseWriter, r *http.Request, status int, st ui.FormState) {
	ctx := r.Context()
	ranking, slug := r.PathValue("ranking"), r.PathValue("entry")
	ev, err := d.read.Entry(ctx, ranking, slug)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	changes, err := d.read.EntryChanges(ctx, ranking, slug)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	p := ui.PageOf(r, "", "dashboard")
	v := entryViewOf(p, ev, changes, httpx.Now(ctx))
	if d.passages != nil {
		v.linkChangedVersions()
	}
	v.Title = v.Name
	conflicts, err := d.read.Conflicts(ctx, ranking)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	v.Conflicts = conflictBoxOf(p, conflicts, slug, st)
	ui.Render(w, r, status, entryPage(v))
}

func entryViewOf(p ui.Page, ev projections.EntryView, changes []projections.EntryChange, now time.Time) entryView {
	w := rankingWordsOf(ev.Ranking, p.Lang)
	v := entryView{Page: p, Ranking: ev.Ranking.Slug, RankingTitle: w.Title(), Slug: ev.Slug,
		Name: ev.Name.In(p.Lang), Category: w.Category(ev.Category), Website: ev.Website,
		Description: ev.Description.In(p.Lang), Published: ev.Published, Rank: ev.Rank, Total: totalText(ev.Total),
		Edition:  ev.Edition,
		AuditURL: auditURL(projections.AuditFilter{Ranking: ev.Ranking.Slug, Entry: ev.Slug})}
	// Only editors open proposals (DecideOpenProposal); anyone else would
	// follow the link to a 403.
	if p.Has(domain.RoleEditor) {
		v.ProposeURL = "/desk/proposals/new?" + url.Values{"ranking": {ev.Ranking.Slug}, "entry": {ev.Slug}}.Encode()
	}
	if ev.Published {
		v.PublicURL = "/r/" + url.PathEscape(ev.Ranking.Slug) + "/e/" + url.PathEscape(ev.Slug)
	}
	// Proposals are named by their titles (the entry's proposals carry
	// them); an id stands only for one not listed.
	titles := make(map[string]string, len(ev.Proposals))
	for _, pr := range ev.Proposals {
		titles[pr.ID] = pr.Title
	}
	title := func(id string) string { return cmp.Or(titles[id], id) }
	for _, c := range ev.Ranking.Criteria {
		sv := entryScoreView{Criterion: c.Slug, Label: c.Name.In(p.Lang), Weight: c.Weight}
		i := slices.IndexFunc(ev.Scores, func(s projections.ScoreView) bool { return s.Criterion == c.Slug })
		if i >= 0 {
			sc := ev.Scores[i]
			sv.Scored, sv.Score, sv.Proposal, sv.Edition, sv.Rationale = true, sc.Score, title(sc.Proposal), sc.Edition, ui.BilingualOf(p, sc.Rationale)
			sv.ProposalURL = proposalURL(sc.Proposal)
			sv.Evidence = entryEvidenceOf(p, ev, sc.Evidence, now)
		}
		v.Scores = append(v.Scores, sv)
	}
	for _, a := range ev.Attributes {
		v.Attributes = append(v.Attributes, entryAttrView{Key: a.Key, Label: w.Target("attr:" + a.Key),
			Tags: w.Tags(a.Key, a.Tags), ProposalURL: proposalURL(a.Proposal), Edition: a.Edition,
			Evidence: entryEvidenceOf(p, ev, a.Evidence, now)})
	}
	for _, pr := range ev.Proposals {
		pv := entryProposalView{ID: pr.ID, URL: proposalURL(pr.ID), Title: pr.Title, Author: pr.Author,
			Status: string(pr.Status), Label: p.StatusLabel(pr.Status), Open: pr.Status.Open()}
		if t, err := time.Parse(time.RFC3339Nano, pr.UpdatedAt); err == nil {
			pv.Updated = p.Date(t)
		}
		if pv.Open {
			v.Open = append(v.Open, pv)
		}
		v.Proposals = append(v.Proposals, pv)
	}
	for _, c := range changes {
		if n := len(v.Editions); n == 0 || v.Editions[n-1].Number != c.Edition {
			v.Editions = append(v.Editions, entryEditionView{Number: c.Edition, At: p.Date(c.PublishedAt),
				URL: EditionURL(ev.Ranking.Slug, c.Edition)})
		}
		ed := &v.Editions[len(v.Editions)-1]
		ed.Changes = append(ed.Changes, entryChangeView{Label: w.Target(c.Target),
			From: w.Value(c.Target, c.FromScore, c.FromTags), To: w.Value(c.Target, c.ToScore, c.ToTags),
			Proposal: title(c.Proposal), ProposalURL: proposalURL(c.Proposal)})
	}
	for i := len(ev.History) - 1; i >= 0; i-- {
		h := ev.History[i]
		v.History = append(v.History, entryRankView{Edition: h.Edition, Rank: h.Rank, Total: totalText(h.Total)})
	}
	return v
}

// linkChangedVersions links each evidence item whose source a re-check
// found changed to the new version's text with the quote looked for: the
// desk shows it when it has the archive (Config.Passages).
func (v *entryView) linkChangedVersions() {
	for _, list := range v.evidenceLists() {
		for i := range list {
			list[i].ChangedURL = list[i].changed
		}
	}
}

// evidenceLists returns the evidence lists of every score and attribute.
func (v *entryView) evidenceLists() [][]entryEvidenceView {
	var out [][]entryEvidenceView
	for _, s := range v.Scores {
		out = append(out, s.Evidence)
	}
	for _, a := range v.Attributes {
		out = append(out, a.Evidence)
	}
	return out
}

func entryEvidenceOf(p ui.Page, entry projections.EntryView, evs []projections.EvidenceView, now time.Time) []entryEvidenceView {
	out := make([]entryEvidenceView, 0, len(evs))
	for _, e := range evs {
		v := entryEvidenceView{ID: e.ID, ProposalURL: proposalURL(e.Proposal), Claim: ui.BilingualOf(p, e.Claim),
			SourceURL: e.SourceURL, SourceName: e.SourceName, Section: e.Section, Excerpt: e.Excerpt,
			Observed: p.Day(e.ObservedOn), StaleAfter: p.Day(e.StaleAfter), Stale: e.Stale(now), Tier: ui.TierOf(p, e.Tier)}
		if e.Drift.State == domain.DriftChanged {
			v.changed = PassagePath(e.Proposal, e.ID, true)
		}
		if e.Drift.State == domain.DriftChanged || e.Drift.State == domain.DriftDead {
			v.Drift = driftNote(p, e.Drift)
			if p.Has(domain.RoleEditor) && entry.Published {
				v.ReverifyURL = ReverifyPath(entry.Ranking.Slug, entry.Slug, e.Proposal, e.ID)
			}
		}
		out = append(out, v)
	}
	return out
}
