package desk

import (
	"net/http"
	"net/url"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// Search result page sizes: a few of each kind on the overview, a page of
// one kind when the user chose it.
const (
	searchPreview = 10
	searchRows    = 50
)

// searchKinds are the kinds of document search finds, in the order shown.
var searchKinds = []string{projections.SearchEntry, projections.SearchProposal, projections.SearchEvidence}

// searchView is the model of the desk's search page.
type searchView struct {
	ui.Page
	Query    string // as typed
	Kind     string // "" for every kind
	Sections []searchSection
}

// searchSection is the hits of one kind.
type searchSection struct {
	Kind     string
	Title    string
	Hits     []searchHitView
	Pager    ui.Pager
	More     bool   // more matched than Pager.Total counts
	MoreHref string // the kind's own paged list; "" when it is shown
}

// searchHitView is one hit: what it is, a line under it, its page, and
// the text around what matched.
type searchHitView struct {
	Title   string
	Sub     string
	Href    string
	Snippet []projections.SnippetPart
}

// serveSearch answers GET /desk/search?q=&kind=&page=: entries by name or
// slug, proposals by title, evidence by claim, excerpt or source URL. It
// asks projections.Search as GET /api/v1/search does, a page of each kind
// shown, each bounded alike (projections.SearchCandidates).
func (d *Desk) serveSearch(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v := searchView{Page: ui.PageOf(r, "search.title", "search"), Query: q.Get("q")}
	kinds := searchKinds
	if k := q.Get("kind"); k != "" {
		for _, known := range searchKinds {
			if k == known {
				v.Kind, kinds = k, []string{k}
			}
		}
	}
	for _, kind := range kinds {
		per, page := searchPreview, 1
		if v.Kind != "" {
			per, page = searchRows, ui.RequestedPage(q)
		}
		res, err := d.read.Search(r.Context(), projections.SearchQuery{Text: v.Query, Kind: kind,
			Limit: per, Offset: (page - 1) * per})
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		total := res.Total
		sec := searchSection{Kind: kind, Title: v.T("search.kind." + kind), More: res.More}
		sec.Pager = ui.NewPager(total, page, per, func(n int) string { return ui.PageHref(r.URL, n) })
		if sec.Pager.Beyond() && total > 0 {
			ui.Fail(w, r, projections.ErrNotFound)
			return
		}
		if v.Kind == "" && total > per {
			sec.Pager = ui.NewPager(total, 1, total, nil) // the count alone; the link goes to the paged list
			sec.MoreHref = searchHref(v.Query, kind)
		}
		for _, h := range res.Hits {
			sec.Hits = append(sec.Hits, hitView(v.Page, h))
		}
		v.Sections = append(v.Sections, sec)
	}
	ui.Render(w, r, http.StatusOK, searchPage(v))
}

// searchHref is the search page for q, of one kind ("" for all).
func searchHref(q, kind string) string {
	vals := url.Values{"q": {q}}
	if kind != "" {
		vals.Set("kind", kind)
	}
	return paths.Search + "?" + vals.Encode()
}

// hitView words a hit for the page.
func hitView(p ui.Page, h projections.SearchHit) searchHitView {
	v := searchHitView{Title: h.Title, Snippet: h.Snippet}
	if h.Kind == projections.SearchEvidence {
		v.Title = h.Claim.In(p.Lang)
	}
	switch h.Kind {
	case projections.SearchEntry:
		v.Title, v.Sub = h.Name.In(p.Lang), h.Ranking+" / "+h.Entry+" · "+h.Name.In(otherLang(p.Lang))
		v.Href = "/desk/entries/" + url.PathEscape(h.Ranking) + "/" + url.PathEscape(h.Entry)
	case projections.SearchProposal:
		v.Sub, v.Href = h.Ranking+" / "+h.Entry+" · "+p.T("status."+h.Status), ProposalPath(h.Proposal)
	default:
		v.Sub, v.Href = h.Source+" · "+h.Ranking+" / "+h.Entry, ProposalPath(h.Proposal)+"#evidence-"+h.Evidence
	}
	return v
}

// otherLang is the language a page is not in.
func otherLang(lang string) string {
	if lang == "zh" {
		return "en"
	}
	return "zh"
}
