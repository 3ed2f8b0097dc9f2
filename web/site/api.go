package site

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// The read side of the JSON API. Field names are snake_case and stable;
// texts carry both languages ({"zh": …, "en": …}); totals are integers
// 0–1000 (Σ weight·score), as hashed in snapshots. The same functions build
// the API's answers and the static export's .json files, byte for byte.

type apiRankingItem struct {
	Slug        string      `json:"slug"`
	Title       events.Text `json:"title"`
	Description events.Text `json:"description"`
	Edition     int         `json:"edition"`
	PublishedAt string      `json:"published_at,omitempty"`
}

type apiRankingList struct {
	Rankings []apiRankingItem `json:"rankings"`
}

func apiRankingsOf(ctx context.Context, read *projections.Store) (apiRankingList, error) {
	list, err := read.Rankings(ctx)
	out := apiRankingList{Rankings: []apiRankingItem{}}
	if err != nil {
		return out, err
	}
	for _, rk := range list {
		r, _, err := read.Definition(ctx, rk.Slug)
		if err != nil {
			return out, err
		}
		m, err := read.EditionMark(ctx, rk.Slug)
		if err != nil {
			return out, err
		}
		out.Rankings = append(out.Rankings, apiRankingItem{Slug: rk.Slug, Title: rk.Title, Description: r.Description,
			Edition: rk.Edition, PublishedAt: m.PublishedAt})
	}
	return out, nil
}

type apiCriterion struct {
	Slug   string      `json:"slug"`
	Name   events.Text `json:"name"`
	Weight int         `json:"weight"` // in the chosen scenario
}

type apiExclusion struct {
	Filter string      `json:"filter"`
	Option string      `json:"option"`
	Reason events.Text `json:"reason"`
}

type apiStandingEntry struct {
	Slug         string         `json:"slug"`
	Name         events.Text    `json:"name"`
	Category     string         `json:"category"`
	Rank         int            `json:"rank"` // under the scenario's weights, all entries
	CategoryRank int            `json:"category_rank"`
	Total        int            `json:"total"` // 0–1000; pages show total/100
	Scores       map[string]int `json:"scores"`
	Move         *int           `json:"move"` // rank change in the latest edition (+ is up); null when new
	New          bool           `json:"new"`
	SinceEdition int            `json:"since_edition"`
	ExcludedBy   []apiExclusion `json:"excluded_by,omitempty"`
}

type apiStanding struct {
	Ranking     string             `json:"ranking"`
	Title       events.Text        `json:"title"`
	Edition     int                `json:"edition"`
	PublishedAt string             `json:"published_at,omitempty"`
	Scenario    string             `json:"scenario"` // "" for the overall weights
	Needs       map[string]string  `json:"needs"`
	Criteria    []apiCriterion     `json:"criteria"`
	Entries     []apiStandingEntry `json:"entries"`  // meeting every need, best first
	Excluded    []apiStandingEntry `json:"excluded"` // hidden by a need, with the reasons
}

// apiQueryOf validates the API's ranking query: an unknown scenario, need
// or answer is refused (422) rather than silently ignored as pages do.
func apiQueryOf(r *domain.Ranking, q url.Values) (viewQuery, error) {
	out := viewQueryOf(r, q)
	if sc := q.Get("scenario"); sc != out.Scenario {
		return out, &domain.FieldError{Field: "scenario", Code: "field.unknown_scenario", Args: domain.Args{"value": sc}}
	}
	for k, vs := range q {
		if reserved[k] || k == "category" {
			continue
		}
		if len(vs) > 0 && vs[0] != "" && out.Needs[k] != vs[0] {
			return out, &domain.FieldError{Field: k, Code: "field.unknown_need", Args: domain.Args{"value": vs[0]}}
		}
	}
	return out, nil
}

func apiStandingOf(ctx context.Context, read *projections.Store, slug string, q viewQuery) (apiStanding, error) {
	st, err := read.Standing(ctx, slug, q.Scenario, q.Needs)
	if err != nil {
		return apiStanding{}, err
	}
	m, err := read.EditionMark(ctx, slug)
	if err != nil {
		return apiStanding{}, err
	}
	q.Category = "" // the API lists every category
	moves, err := movesOf(ctx, read, slug, st.Edition, q)
	if err != nil {
		return apiStanding{}, err
	}
	out := apiStanding{Ranking: slug, Title: st.Ranking.Title, Edition: st.Edition, PublishedAt: m.PublishedAt,
		Scenario: st.Scenario, Needs: q.Needs, Criteria: []apiCriterion{}, Entries: []apiStandingEntry{}, Excluded: []apiStandingEntry{}}
	for _, c := range st.Ranking.Criteria {
		out.Criteria = append(out.Criteria, apiCriterion{Slug: c.Slug, Name: c.Name, Weight: st.Weights[c.Slug]})
	}
	for _, row := range st.Rows {
		e := apiStandingEntry{Slug: row.Slug, Name: row.Name, Category: row.Category, Rank: row.Rank,
			CategoryRank: row.CategoryRank, Total: row.Total, Scores: row.Scores, SinceEdition: row.Since}
		if d, ok := moves[row.Slug]; ok && d == nil {
			e.New = true
		} else if ok {
			e.Move = d
		} else {
			zero := 0
			e.Move = &zero
		}
		if e.Scores == nil {
			e.Scores = map[string]int{}
		}
		if len(row.Excluded) == 0 {
			out.Entries = append(out.Entries, e)
			continue
		}
		for _, ex := range row.Excluded {
			e.ExcludedBy = append(e.ExcludedBy, apiExclusion{Filter: ex.Filter, Option: ex.Option, Reason: ex.Reason})
		}
		out.Excluded = append(out.Excluded, e)
	}
	return out, nil
}

type apiEditionItem struct {
	Number       int      `json:"number"`
	PublishedAt  string   `json:"published_at"`
	Publisher    string   `json:"publisher"`
	Note         string   `json:"note,omitempty"`
	SnapshotHash string   `json:"snapshot_hash"`
	Proposals    []string `json:"proposals"`
	Changes      int      `json:"changes"`
}

type apiEditionList struct {
	Ranking  string           `json:"ranking"`
	Editions []apiEditionItem `json:"editions"` // newest first
}

func apiEditionsOf(ctx context.Context, read *projections.Store, slug string) (apiEditionList, error) {
	if _, _, err := read.Definition(ctx, slug); err != nil {
		return apiEditionList{}, err
	}
	list, err := read.Editions(ctx, slug, 1000)
	out := apiEditionList{Ranking: slug, Editions: []apiEditionItem{}}
	for _, e := range list {
		out.Editions = append(out.Editions, apiEditionItem{Number: e.Number, PublishedAt: e.PublishedAt, Publisher: e.Publisher,
			Note: e.Note, SnapshotHash: e.SnapshotHash, Proposals: nonNil(e.Proposals), Changes: e.Changes})
	}
	return out, err
}

type apiChange struct {
	Proposal  string   `json:"proposal"`
	Entry     string   `json:"entry"`
	Target    string   `json:"target"` // "score:<criterion>" or "attr:<key>"
	FromScore *int     `json:"from_score,omitempty"`
	ToScore   *int     `json:"to_score,omitempty"`
	FromTags  []string `json:"from_tags,omitempty"`
	ToTags    []string `json:"to_tags,omitempty"`
	Evidence  []string `json:"evidence"`
}

type apiMove struct {
	Entry       string `json:"entry"`
	BeforeRank  *int   `json:"before_rank"` // null: new in this edition
	AfterRank   int    `json:"after_rank"`
	BeforeTotal *int   `json:"before_total"`
	AfterTotal  int    `json:"after_total"`
}

type apiEdition struct {
	Ranking string `json:"ranking"`
	apiEditionItem
	PreviewHash string      `json:"preview_hash"`
	AuditHead   string      `json:"audit_head"`
	NewEntries  []string    `json:"new_entries"`
	ChangeLog   []apiChange `json:"change_log"`
	Moves       []apiMove   `json:"moves"` // overall, by rank after the edition
}

func apiEditionOf(ctx context.Context, read *projections.Store, slug string, n int) (apiEdition, error) {
	d, err := read.Edition(ctx, slug, n)
	if err != nil {
		return apiEdition{}, err
	}
	out := apiEdition{Ranking: slug, apiEditionItem: apiEditionItem{Number: d.Number, PublishedAt: d.PublishedAt,
		Publisher: d.Publisher, Note: d.Note, SnapshotHash: d.SnapshotHash, Proposals: nonNil(d.Proposals), Changes: len(d.Changes)},
		PreviewHash: d.PreviewHash, AuditHead: d.AuditHead, NewEntries: []string{}, ChangeLog: []apiChange{}, Moves: []apiMove{}}
	for _, c := range d.Changes {
		ac := apiChange{Proposal: c.Proposal, Entry: c.Entry, Target: c.Target, FromScore: c.FromScore, ToScore: c.ToScore,
			FromTags: c.FromTags, ToTags: c.ToTags, Evidence: []string{}}
		for _, e := range c.Evidence {
			ac.Evidence = append(ac.Evidence, e.ID)
		}
		out.ChangeLog = append(out.ChangeLog, ac)
	}
	for _, m := range d.Moves {
		out.Moves = append(out.Moves, apiMove{Entry: m.Entry, BeforeRank: m.Before, AfterRank: m.After,
			BeforeTotal: m.BeforeTotal, AfterTotal: m.AfterTotal})
		if m.Before == nil {
			out.NewEntries = append(out.NewEntries, m.Entry)
		}
	}
	return out, nil
}

type apiEvidence struct {
	Proposal     string `json:"proposal"`
	ID           string `json:"id"`
	Claim        string `json:"claim"`
	SourceURL    string `json:"source_url,omitempty"`
	SourceName   string `json:"source_name,omitempty"`
	Section      string `json:"section,omitempty"`
	Excerpt      string `json:"excerpt,omitempty"`
	ObservedOn   string `json:"observed_on"`
	ValidForDays int    `json:"valid_for_days,omitempty"`
	StaleAfter   string `json:"stale_after,omitempty"`
	Stale        bool   `json:"stale"`
}

type apiEntryScore struct {
	Criterion string        `json:"criterion"`
	Score     int           `json:"score"`
	Edition   int           `json:"edition"`
	Proposal  string        `json:"proposal"`
	Rationale string        `json:"rationale"`
	Evidence  []apiEvidence `json:"evidence"`
}

type apiEntryAttribute struct {
	Key      string        `json:"key"`
	Tags     []string      `json:"tags"`
	Edition  int           `json:"edition"`
	Proposal string        `json:"proposal"`
	Evidence []apiEvidence `json:"evidence"`
}

type apiRankPoint struct {
	Edition int `json:"edition"`
	Rank    int `json:"rank"`
	Total   int `json:"total"`
}

type apiEntry struct {
	Ranking      string              `json:"ranking"`
	Slug         string              `json:"slug"`
	Name         events.Text         `json:"name"`
	Category     string              `json:"category"`
	Website      string              `json:"website,omitempty"`
	Description  events.Text         `json:"description"`
	Edition      int                 `json:"edition"`
	Rank         int                 `json:"rank"`
	CategoryRank int                 `json:"category_rank"`
	Total        int                 `json:"total"`
	Scores       []apiEntryScore     `json:"scores"`
	Attributes   []apiEntryAttribute `json:"attributes"`
	History      []apiRankPoint      `json:"history"`
}

func apiEntryOf(ctx context.Context, read *projections.Store, slug, entry string, now time.Time) (apiEntry, error) {
	e, err := read.Entry(ctx, slug, entry)
	if err != nil {
		return apiEntry{}, err
	}
	if !e.Published {
		return apiEntry{}, projections.ErrNotFound
	}
	evs := func(list []projections.EvidenceView) []apiEvidence {
		out := []apiEvidence{}
		for _, v := range list {
			out = append(out, apiEvidence{Proposal: v.Proposal, ID: v.ID, Claim: v.Claim, SourceURL: v.SourceURL,
				SourceName: v.SourceName, Section: v.Section, Excerpt: v.Excerpt, ObservedOn: v.ObservedOn,
				ValidForDays: v.ValidForDays, StaleAfter: v.StaleAfter, Stale: v.Stale(now)})
		}
		return out
	}
	out := apiEntry{Ranking: slug, Slug: e.Slug, Name: e.Name, Category: e.Category, Website: e.Website, Description: e.Description,
		Edition: e.Edition, Rank: e.Rank, CategoryRank: e.CategoryRnk, Total: e.Total,
		Scores: []apiEntryScore{}, Attributes: []apiEntryAttribute{}, History: []apiRankPoint{}}
	for _, s := range e.Scores {
		out.Scores = append(out.Scores, apiEntryScore{Criterion: s.Criterion, Score: s.Score, Edition: s.Edition,
			Proposal: s.Proposal, Rationale: s.Rationale, Evidence: evs(s.Evidence)})
	}
	for _, a := range e.Attributes {
		out.Attributes = append(out.Attributes, apiEntryAttribute{Key: a.Key, Tags: nonNil(a.Tags), Edition: a.Edition,
			Proposal: a.Proposal, Evidence: evs(a.Evidence)})
	}
	for _, h := range e.History {
		out.History = append(out.History, apiRankPoint{Edition: h.Edition, Rank: h.Rank, Total: h.Total})
	}
	return out, nil
}

// marshalJSON encodes an API answer: indented, with a final newline, so the
// API and the export's files are the same bytes.
func marshalJSON(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// serveAPI answers a public API read with validators (see fresh).
// query is the canonical query the answer reads (see validator.query).
func (s *Site) serveAPI(w http.ResponseWriter, r *http.Request, ranking string, query url.Values, daily bool, build func(ctx context.Context) (any, error)) {
	ctx := r.Context()
	mark, err := s.editionMark(ctx, ranking)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	pc := validator{mark: mark, daily: daily, kind: "api", query: query}
	if s.fresh(w, r, pc) {
		return
	}
	if key, ok := s.bodyKey(r, pc, liveUpdates{}); ok {
		s.serveJSONBody(w, r, key, build)
		return
	}
	v, err := build(ctx)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	body, err := marshalJSON(v)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

func (s *Site) apiRankings(w http.ResponseWriter, r *http.Request) {
	s.serveAPI(w, r, "", nil, false, func(ctx context.Context) (any, error) { return apiRankingsOf(ctx, s.read) })
}

func (s *Site) apiRanking(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	// The query is checked before the cache is asked: a canonical key
	// would otherwise answer an unknown need from the body without it.
	def, _, err := s.definition(r.Context(), slug)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	q, err := apiQueryOf(def, r.URL.Query())
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	q.Category, q.All = "", false // the API lists every category and row
	s.serveAPI(w, r, slug, q.values(), false, func(ctx context.Context) (any, error) {
		return apiStandingOf(ctx, s.read, slug, q)
	})
}

func (s *Site) apiEditions(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.serveAPI(w, r, slug, nil, false, func(ctx context.Context) (any, error) { return apiEditionsOf(ctx, s.read, slug) })
}

func (s *Site) apiEdition(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		ui.Fail(w, r, domain.ErrNotFound)
		return
	}
	s.serveAPI(w, r, slug, nil, false, func(ctx context.Context) (any, error) { return apiEditionOf(ctx, s.read, slug, n) })
}

func (s *Site) apiEntry(w http.ResponseWriter, r *http.Request) {
	slug, entry := r.PathValue("slug"), r.PathValue("entry")
	s.serveAPI(w, r, slug, nil, true, func(ctx context.Context) (any, error) {
		return apiEntryOf(ctx, s.read, slug, entry, httpx.Now(ctx))
	})
}

// nonNil returns a copy of s that encodes as [] when s is empty.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}
