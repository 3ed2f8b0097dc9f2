package site

import (
	"context"
	"net/http"
	"strconv"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// The public corrections log: every report readers sent about a ranking
// that the editors decided, with its outcome — accepted, with the proposal
// and the edition that published it; declined, with the reason; or a
// duplicate. Never the reporter: no read model holds a contact address.
//
// It changes with each triage, not with editions, so it is not served from
// the page cache (whose validators follow editions): each request reads it.

// correctionsPerPage is how many decided reports a page of the log holds.
const correctionsPerPage = 100

// Correction is one decided report in the log (the JSON form too).
type Correction struct {
	ID          string `json:"id"`
	Entry       string `json:"entry"`
	Criterion   string `json:"criterion,omitempty"`
	Kind        string `json:"kind"`
	Text        string `json:"text"`
	Status      string `json:"status"`
	Reason      string `json:"reason,omitempty"`
	Proposal    string `json:"proposal,omitempty"`
	Edition     int    `json:"edition,omitempty"`
	DuplicateOf string `json:"duplicate_of,omitempty"`
	DecidedAt   string `json:"decided_at"`
}

// Corrections is one page of a ranking's corrections log.
type Corrections struct {
	Ranking     string       `json:"ranking"`
	Corrections []Correction `json:"corrections"`
	Total       int          `json:"total"`
	Page        int          `json:"page"`
	Pages       int          `json:"pages"`
	PerPage     int          `json:"per_page"`
}

// correctionsOf reads one page of the log of a public ranking (404 for a
// ranking not published, and for a page past the last).
func correctionsOf(ctx context.Context, read *projections.Store, slug string, r *http.Request) (Corrections, *domain.Ranking, error) {
	def, edition, err := read.Definition(ctx, slug)
	if err != nil {
		return Corrections{}, nil, err
	}
	if edition < 1 {
		return Corrections{}, nil, domain.ErrRankingMissing
	}
	page := 1
	if s := r.URL.Query().Get("page"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return Corrections{}, nil, &httpx.BadField{Field: "page", Code: "field.whole_number"}
		}
		page = n
	}
	rows, total, err := read.Corrections(ctx, slug, correctionsPerPage, (page-1)*correctionsPerPage)
	if err != nil {
		return Corrections{}, nil, err
	}
	out := Corrections{Ranking: slug, Corrections: make([]Correction, 0, len(rows)), Total: total, Page: page,
		Pages: max(1, (total+correctionsPerPage-1)/correctionsPerPage), PerPage: correctionsPerPage}
	if page > out.Pages {
		return Corrections{}, nil, projections.ErrNotFound
	}
	for _, c := range rows {
		out.Corrections = append(out.Corrections, Correction{ID: c.ID, Entry: c.Entry, Criterion: c.Criterion, Kind: c.Kind,
			Text: c.Text, Status: c.Status, Reason: c.Reason, Proposal: c.Proposal, Edition: c.Edition,
			DuplicateOf: c.DuplicateOf, DecidedAt: c.DecidedAt})
	}
	return out, def, nil
}

// corrections serves GET /r/{slug}/corrections.
func (s *Site) corrections(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	log, def, err := correctionsOf(r.Context(), s.read, slug, r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	p := ui.PageOf(r, "", "rankings")
	l := liveLinks
	l.origin = s.origin
	v := correctionsView{Page: p, L: l, Slug: slug, RankingTitle: def.Title.In(p.Lang), RankingHref: l.Ranking(slug, "", ""), Log: log}
	v.Page.Title = p.T("corrections.title") + " · " + v.RankingTitle
	for _, c := range log.Corrections {
		v.Rows = append(v.Rows, correctionRow{Correction: c, EntryHref: l.Entry(slug, c.Entry, ""),
			EditionHref: editionHref(l, slug, c.Edition), On: dayText(p, c.DecidedAt)})
	}
	if log.Page > 1 {
		v.PrevHref = "?page=" + strconv.Itoa(log.Page-1)
	}
	if log.Page < log.Pages {
		v.NextHref = "?page=" + strconv.Itoa(log.Page+1)
	}
	ui.Render(w, r, http.StatusOK, correctionsPage(v))
}

func editionHref(l linkSet, slug string, n int) string {
	if n < 1 {
		return ""
	}
	return l.Edition(slug, n)
}

// apiCorrections serves GET /api/v1/rankings/{slug}/corrections.
func (s *Site) apiCorrections(w http.ResponseWriter, r *http.Request) {
	log, _, err := correctionsOf(r.Context(), s.read, r.PathValue("slug"), r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, log)
}

// correctionsView is the model of the corrections log page.
type correctionsView struct {
	ui.Page
	L                  linkSet
	Live               liveUpdates
	Slug               string
	RankingTitle       string
	RankingHref        string
	Log                Corrections
	Rows               []correctionRow
	PrevHref, NextHref string
}

type correctionRow struct {
	Correction
	EntryHref   string
	EditionHref string // "" until an edition publishes the proposal
	On          string
}

// Corrections is a ranking's corrections log; "" in a static export, which
// holds editions only (the log changes between them).
func (l linkSet) Corrections(slug string) string {
	if l.static {
		return ""
	}
	return "/r/" + slug + "/corrections"
}

// reportEvidence lists the evidence items on an entry page, for the report
// form's choice.
func reportEvidence(v entryView) []evidenceView {
	var out []evidenceView
	for _, s := range v.Scores {
		out = append(out, s.Evidence...)
	}
	return out
}
