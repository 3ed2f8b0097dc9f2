package site

import (
	"context"
	"net/url"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
)

type apiRankingItem struct {
	Slug        string      `json:"slug"`
	Title       events.Text `json:"title"`
	Description events.Text `json:"description"`
	Edition     int         `json:"edition"`
	PublishedAt string      `json:"published_at,omitempty"`
	// SnapshotHash is the hash of the latest edition's snapshot.
	SnapshotHash string `json:"snapshot_hash"`
}

type apiRankingList struct {
	Rankings []apiRankingItem `json:"rankings"`
}

func apiRankingsOf(ctx context.Context, read *projections.Store) (apiRankingList, error) {
	list, err := read.PublishedRankings(ctx)
	out := apiRankingList{Rankings: []apiRankingItem{}}
	if err != nil {
		return out, err
	}
	for _, rk := range list {
		r, _, err := read.Definition(ctx, rk.Slug)
		if err != nil {
			return out, err
		}
		out.Rankings = append(out.Rankings, apiRankingItem{Slug: rk.Slug, Title: rk.Title, Description: r.Description,
			Edition: rk.Edition, PublishedAt: rk.PublishedAt, SnapshotHash: rk.SnapshotHash})
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
	Slug     string      `json:"slug"`
	Name     events.Text `json:"name"`
	Category string      `json:"category"`
	Rank     int         `json:"rank"` // under the scenario's weights, all entries
	// Tier groups the entries one removed score or one moved weight could
	// reorder (see domain.Stability): of the overall published order
	// only, absent where Stability is.
	Tier         int            `json:"tier,omitempty"`
	CategoryRank int            `json:"category_rank"`
	Total        int            `json:"total"` // 0–1000; pages show total/100
	Scores       map[string]int `json:"scores"`
	Move         *int           `json:"move"` // rank change in the latest edition (+ is up); null when new
	New          bool           `json:"new"`
	SinceEdition int            `json:"since_edition"`
	ExcludedBy   []apiExclusion `json:"excluded_by,omitempty"`
	// Stability is how solid the overall rank is (absent under a
	// scenario's weights and in the independent view).
	Stability *apiStability `json:"stability,omitempty"`
}

type apiStanding struct {
	Ranking     string      `json:"ranking"`
	Title       events.Text `json:"title"`
	Edition     int         `json:"edition"`
	PublishedAt string      `json:"published_at,omitempty"`
	Scenario    string      `json:"scenario"` // "" for the overall weights
	// Evidence is "independent" when only the scores independent evidence
	// backs are counted (?evidence=independent), "all" otherwise.
	Evidence string `json:"evidence"`
	// IndependentHash is the SHA-256 of the independent view's canonical
	// snapshot (domain.IndependentSnapshot), with Evidence "independent".
	// Moves are null there and new false: editions record the moves of
	// the published order only.
	IndependentHash string             `json:"independent_hash,omitempty"`
	Needs           map[string]string  `json:"needs"`
	Criteria        []apiCriterion     `json:"criteria"`
	Entries         []apiStandingEntry `json:"entries"`  // meeting every need, best first
	Excluded        []apiStandingEntry `json:"excluded"` // hidden by a need, with the reasons
	// Next is the cursor of the following page (?after=), absent on the
	// last; a page holds the rows of Entries and Excluded together.
	Next string `json:"next,omitempty"`
}

// apiQueryOf validates the API's ranking query: an unknown scenario, need
// or answer is refused (422) rather than silently ignored as pages do.
func apiQueryOf(r *domain.Ranking, q url.Values) (viewQuery, error) {
	out := viewQueryOf(r, q)
	if sc := q.Get("scenario"); sc != out.Scenario {
		return out, &domain.FieldError{Field: "scenario", Code: "field.unknown_scenario", Args: domain.Args{"value": sc}}
	}
	if ev := q.Get("evidence"); ev != "" && ev != independentEvidence {
		return out, &domain.FieldError{Field: "evidence", Code: "field.unknown_evidence_basis", Args: domain.Args{"value": ev}}
	}
	for k, vs := range q {
		if reserved[k] || k == "category" || k == "limit" || k == "after" {
			continue
		}
		if len(vs) > 0 && vs[0] != "" && out.Needs[k] != vs[0] {
			return out, &domain.FieldError{Field: k, Code: "field.unknown_need", Args: domain.Args{"value": vs[0]}}
		}
	}
	return out, nil
}

// apiStandingOf is the standing of ranking slug under q: the rows page
// chooses, in rank order.
func apiStandingOf(ctx context.Context, read *projections.Store, slug string, q viewQuery, page standingPage) (apiStanding, error) {
	st, hash, err := standingOf(ctx, read, slug, q)
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
		Scenario: st.Scenario, Needs: q.Needs, Criteria: []apiCriterion{}, Entries: []apiStandingEntry{}, Excluded: []apiStandingEntry{},
		Evidence: "all", IndependentHash: hash}
	if q.Independent {
		out.Evidence = independentEvidence
	}
	for _, c := range st.Ranking.Criteria {
		out.Criteria = append(out.Criteria, apiCriterion{Slug: c.Slug, Name: c.Name, Weight: st.Weights[c.Slug]})
	}
	var stab map[string]domain.EntryStability
	if q.Scenario == "" && !q.Independent {
		if stab, err = read.Stability(ctx, slug, st.Edition); err != nil {
			return apiStanding{}, err
		}
	}
	rows, next := page.of(st.Rows)
	if next > 0 {
		out.Next = encodeStandingCursor(next)
	}
	for _, row := range rows {
		e := apiStandingEntry{Slug: row.Slug, Name: row.Name, Category: row.Category, Rank: row.Rank,
			CategoryRank: row.CategoryRank, Total: row.Total, Scores: row.Scores, SinceEdition: row.Since,
			Stability: apiStabilityOf(stab, row.Slug, false), Tier: stab[row.Slug].Tier}
		switch d, ok := moves[row.Slug]; {
		case q.Independent: // no moves: see IndependentHash
		case ok && d == nil:
			e.New = true
		case ok:
			e.Move = d
		default:
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
