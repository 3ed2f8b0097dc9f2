package site

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// Why did an entry move? GET /r/{slug}/e/{entry}/changes?from=3&to=7
// compares two editions for one entry: each published score change with
// its proposal and evidence, each methodology change that moved its total,
// and the rank move split by domain.SplitMove (its own scores, then
// others', then the methodology, in that order). The same answer is JSON
// at …/changes.json or with Accept: application/json.

// changesSpan is the two editions compared.
type changesSpan struct {
	From, To int
	Latest   int // the ranking's newest edition
}

// changesSpanOf reads from and to: each the number of a published edition,
// from before to. A missing to is the newest edition; a missing from the
// one before to, or since (the entry's first edition) if that is later:
// then from may equal to, and there is nothing to compare.
func changesSpanOf(q url.Values, latest, since int) (changesSpan, error) {
	sp := changesSpan{To: latest, Latest: latest}
	for _, f := range []struct {
		name string
		dest *int
	}{{"from", &sp.From}, {"to", &sp.To}} {
		raw := q.Get(f.name)
		if raw == "" {
			continue
		}
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > latest {
			return sp, &httpx.BadField{Field: f.name, Code: "field.changes_" + f.name, Args: domain.Args{"latest": latest}}
		}
		*f.dest = n
	}
	if q.Get("from") == "" {
		sp.From = min(max(sp.To-1, since, 1), sp.To)
	} else if sp.From >= sp.To {
		return sp, &httpx.BadField{Field: "from", Code: "field.changes_order", Args: domain.Args{"to": sp.To}}
	}
	return sp, nil
}

// apiChanges is the JSON answer. Rank moves are + for up.
type apiChanges struct {
	Ranking string `json:"ranking"`
	Entry   string `json:"entry"`
	From    int    `json:"from"`
	To      int    `json:"to"`
	Rank    struct {
		From        int `json:"from"`
		To          int `json:"to"`
		AfterOwn    int `json:"after_own_scores"`
		AfterOthers int `json:"after_others_scores"`
		Own         int `json:"own_scores"`
		Others      int `json:"others_scores"`
		Methodology int `json:"methodology"`
	} `json:"rank"`
	Total struct {
		From        int `json:"from"`
		To          int `json:"to"`
		Own         int `json:"own_scores"`
		Methodology int `json:"methodology"`
	} `json:"total"`
	Scores      []apiScoreChange  `json:"score_changes"`
	Methodology []apiWeightChange `json:"methodology_changes"`
}

type apiScoreChange struct {
	Edition   int              `json:"edition"`
	Criterion string           `json:"criterion"`
	From      *int             `json:"from"`
	To        *int             `json:"to"`
	Proposal  string           `json:"proposal"`
	Evidence  []apiChangeProof `json:"evidence"`
}

type apiChangeProof struct {
	ID         string      `json:"id"`
	Claim      events.Text `json:"claim"` // both languages: the answer is machine-readable
	SourceURL  string      `json:"source_url,omitempty"`
	SourceName string      `json:"source_name,omitempty"`
	ObservedOn string      `json:"observed_on"`
}

type apiWeightChange struct {
	Criterion string `json:"criterion"`
	From      int    `json:"weight_from"`
	To        int    `json:"weight_to"`
	Retired   bool   `json:"retired"` // not weighted in edition to
	Effect    int    `json:"effect"`  // on the entry's total, 0–1000 scale
}

// changesOf compares the span's editions for entry; ErrNotFound for an
// entry never published. An entry absent from edition from is a bad from.
func changesOf(ctx context.Context, read *projections.Store, slug, entry string, sp changesSpan) (apiChanges, domain.MoveSplit, error) {
	out := apiChanges{Ranking: slug, Entry: entry, From: sp.From, To: sp.To,
		Scores: []apiScoreChange{}, Methodology: []apiWeightChange{}}
	from, err := read.PublishedSnapshot(ctx, slug, sp.From)
	if err != nil {
		return out, domain.MoveSplit{}, err
	}
	to, err := read.PublishedSnapshot(ctx, slug, sp.To)
	if err != nil {
		return out, domain.MoveSplit{}, err
	}
	m, ok := domain.SplitMove(*from, *to, entry)
	if !ok {
		return out, m, &httpx.BadField{Field: "from", Code: "field.changes_absent", Args: domain.Args{"edition": sp.From}}
	}
	out.Rank.From, out.Rank.To, out.Rank.AfterOwn, out.Rank.AfterOthers = m.RankFrom, m.RankTo, m.RankOwn, m.RankOthers
	out.Rank.Own, out.Rank.Others, out.Rank.Methodology = m.Parts()
	out.Total.From, out.Total.To = m.TotalFrom, m.TotalTo
	out.Total.Own, out.Total.Methodology = m.TotalOwn-m.TotalFrom, m.TotalTo-m.TotalOthers
	changes, err := read.PublishedChanges(ctx, slug, entry, sp.From, sp.To)
	if err != nil {
		return out, m, err
	}
	for _, c := range changes {
		if c.Kind() != "score" {
			continue
		}
		sc := apiScoreChange{Edition: c.Edition, Criterion: strings.TrimPrefix(c.Target, "score:"), From: c.FromScore,
			To: c.ToScore, Proposal: c.Proposal, Evidence: []apiChangeProof{}}
		for _, e := range c.Evidence {
			sc.Evidence = append(sc.Evidence, apiChangeProof{ID: e.ID, Claim: e.Claim, SourceURL: e.SourceURL,
				SourceName: e.SourceName, ObservedOn: e.ObservedOn})
		}
		out.Scores = append(out.Scores, sc)
	}
	weighted := map[string]bool{}
	for _, w := range to.Weights {
		weighted[w.Name] = true
	}
	for _, w := range m.Methodology {
		out.Methodology = append(out.Methodology, apiWeightChange{Criterion: w.Criterion, From: w.From, To: w.To,
			Retired: !weighted[w.Criterion], Effect: w.Effect})
	}
	return out, m, nil
}

// wantsJSON reports whether the changes view is asked for as JSON: the
// .json address, or an Accept that prefers JSON to HTML.
func wantsJSON(r *http.Request) bool {
	if strings.HasSuffix(r.URL.Path, ".json") {
		return true
	}
	accept := r.Header.Get("Accept")
	return strings.Contains(accept, "application/json") && !strings.Contains(accept, "text/html")
}

// changes serves GET /r/{slug}/e/{entry}/changes and …/changes.json.
func (s *Site) changes(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug, entry := r.PathValue("slug"), r.PathValue("entry")
	asJSON := wantsJSON(r)
	fail := func(err error) {
		if asJSON {
			httpx.WriteProblem(w, r, httpx.Status(err), err)
			return
		}
		ui.Fail(w, r, err)
	}
	w.Header().Set("Vary", "Accept")
	e, err := s.read.Entry(ctx, slug, entry)
	if err == nil && !e.Published {
		err = projections.ErrNotFound
	}
	if err != nil {
		fail(err)
		return
	}
	_, latest, err := s.definition(ctx, slug)
	if err != nil {
		fail(err)
		return
	}
	since := latest
	for _, h := range e.History {
		since = min(since, h.Edition)
	}
	sp, err := changesSpanOf(r.URL.Query(), latest, since)
	if err != nil {
		fail(err)
		return
	}
	if asJSON {
		if sp.From == sp.To { // no earlier edition with the entry: nothing to compare
			fail(&httpx.BadField{Field: "from", Code: "field.changes_order", Args: domain.Args{"to": sp.To}})
			return
		}
		out, _, err := changesOf(ctx, s.read, slug, entry, sp)
		if err != nil {
			fail(err)
			return
		}
		body, err := marshalJSON(out)
		if err != nil {
			fail(err)
			return
		}
		serveFixed(w, r, fixedFile{Type: "application/json", Body: body})
		return
	}
	query := url.Values{"from": {strconv.Itoa(sp.From)}, "to": {strconv.Itoa(sp.To)}}
	s.servePage(w, r, slug, query, false, func(p ui.Page, live liveUpdates) (templ.Component, error) {
		v, err := buildChanges(ctx, s.read, p, liveLinks, e, sp)
		v.Live = live
		return changesPage(v), err
	})
}
