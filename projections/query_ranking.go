package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// ErrNotFound wraps domain.ErrNotFound for queries that find nothing.
var ErrNotFound = fmt.Errorf("projections: %w", domain.ErrNotFound)

// RankingSummary is one ranking in a list.
type RankingSummary struct {
	Slug      string
	Title     events.Text
	Edition   int
	UpdatedAt string
}

// Rankings lists every ranking.
func (s *Store) Rankings(ctx context.Context) ([]RankingSummary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT slug, title_zh, title_en, edition, updated_at FROM rankings ORDER BY slug`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RankingSummary
	for rows.Next() {
		var r RankingSummary
		if err := rows.Scan(&r.Slug, &r.Title.Zh, &r.Title.En, &r.Edition, &r.UpdatedAt); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Definition returns a ranking's definition (categories, criteria, weights,
// attributes, scenarios, filters, quorum) and its latest edition number.
func (s *Store) Definition(ctx context.Context, slug string) (*domain.Ranking, int, error) {
	var raw string
	var edition int
	err := s.db.QueryRowContext(ctx, `SELECT definition, edition FROM rankings WHERE slug=?`, slug).Scan(&raw, &edition)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, ErrNotFound
	}
	if err != nil {
		return nil, 0, err
	}
	var r domain.Ranking
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		return nil, 0, err
	}
	return &r, edition, nil
}

// StandingRow is one published entry in a ranking view.
type StandingRow struct {
	Slug         string
	Name         events.Text
	Category     string
	Total        int // Σ weight·score under the view's weights (0–1000)
	Rank         int // 1-based within the shown list (before filtering)
	CategoryRank int
	Scores       map[string]int // by criterion
	Attributes   map[string][]string
	Move         *int // overall rank change since the previous edition (+ is up); nil: new
	Since        int  // edition that first published it
	Excluded     []domain.Exclusion
}

// StandingView is a published ranking under a scenario and needs.
type StandingView struct {
	Ranking  *domain.Ranking
	Edition  int
	Scenario string // "" for the overall weights
	Weights  map[string]int
	Rows     []StandingRow // ordered by rank; excluded rows included, marked
}

// Standing returns the published ranking ordered by the scenario's weights
// (overall weights when scenario is empty or unknown), marking the entries
// that do not meet the chosen needs with the reasons.
func (s *Store) Standing(ctx context.Context, slug, scenario string, needs map[string]string) (StandingView, error) {
	r, edition, err := s.Definition(ctx, slug)
	if err != nil {
		return StandingView{}, err
	}
	v := StandingView{Ranking: r, Edition: edition, Weights: r.Weights()}
	if sc, ok := r.Scenario(scenario); ok {
		v.Scenario, v.Weights = sc.Slug, sc.Weights
	}
	lists, err := s.publishedLists(ctx, slug, edition)
	if err != nil {
		return v, err
	}
	entries, rows, moves := lists.entries, lists.rows, lists.moves
	for _, st := range domain.Standings(entries, v.Weights) {
		e := entries[st.Entry]
		row := rows[st.Entry]
		row.Total, row.Rank, row.CategoryRank = st.Total, st.Rank, st.CategoryRank
		row.Scores, row.Attributes = e.Scores, e.Attributes
		if m, ok := moves[st.Entry]; ok {
			row.Move = m
		}
		row.Excluded = domain.Meets(e.Attributes, r.Filters, needs)
		v.Rows = append(v.Rows, row)
	}
	return v, nil
}

// publishedLists is what a ranking's edition published, as Standing reads
// it: the entries with their scores and attributes, their rows, and their
// rank moves in the edition.
type publishedLists struct {
	entries map[string]*domain.PublishedEntry
	rows    map[string]StandingRow
	moves   map[string]*int
}

// publishedLists returns the lists of the ranking's edition (the latest,
// read with its definition). An edition's lists never change once it is
// projected, and a page or answer for every scenario and need reads them,
// so they are decoded once per ranking and edition for the few read last
// (the current ones); a new edition is a new key. The maps are shared by
// every caller: read them, never change them.
//
// The lists are read in several queries after the edition number: an edition
// projected meanwhile would put its lists under the number before it, so
// they are remembered only when the number is still the latest after
// reading them.
func (s *Store) publishedLists(ctx context.Context, slug string, edition int) (publishedLists, error) {
	return s.lists.getIf(slug, edition, func() (publishedLists, bool, error) {
		// Not the caller's context: the answer is shared with whoever
		// waits for it, and a cancelled request must not fail theirs.
		ctx := context.WithoutCancel(ctx)
		var l publishedLists
		var err error
		if l.entries, l.rows, err = s.published(ctx, slug); err != nil {
			return l, false, err
		}
		if l.moves, err = s.moves(ctx, slug, edition); err != nil {
			return l, false, err
		}
		var latest int
		if err := s.db.QueryRowContext(ctx, `SELECT edition FROM rankings WHERE slug=?`, slug).Scan(&latest); err != nil {
			return l, false, err
		}
		return l, latest == edition, nil
	})
}

// published loads the published entries with scores and attributes.
func (s *Store) published(ctx context.Context, slug string) (map[string]*domain.PublishedEntry, map[string]StandingRow, error) {
	entries := map[string]*domain.PublishedEntry{}
	rows := map[string]StandingRow{}
	q, err := s.db.QueryContext(ctx, `SELECT slug, name_zh, name_en, category, published_edition FROM entries
		WHERE ranking=? AND published_edition IS NOT NULL`, slug)
	if err != nil {
		return nil, nil, err
	}
	for q.Next() {
		var r StandingRow
		if err := q.Scan(&r.Slug, &r.Name.Zh, &r.Name.En, &r.Category, &r.Since); err != nil {
			q.Close()
			return nil, nil, err
		}
		rows[r.Slug] = r
		entries[r.Slug] = &domain.PublishedEntry{Slug: r.Slug, Name: r.Name, Category: r.Category,
			Scores: map[string]int{}, Attributes: map[string][]string{}, Since: r.Since}
	}
	q.Close()
	sq, err := s.db.QueryContext(ctx, `SELECT entry, criterion, score FROM scores WHERE ranking=?`, slug)
	if err != nil {
		return nil, nil, err
	}
	for sq.Next() {
		var e, c string
		var v int
		if err := sq.Scan(&e, &c, &v); err != nil {
			sq.Close()
			return nil, nil, err
		}
		if pe := entries[e]; pe != nil {
			pe.Scores[c] = v
		}
	}
	sq.Close()
	aq, err := s.db.QueryContext(ctx, `SELECT entry, key, tags FROM attributes WHERE ranking=?`, slug)
	if err != nil {
		return nil, nil, err
	}
	defer aq.Close()
	for aq.Next() {
		var e, k, tags string
		if err := aq.Scan(&e, &k, &tags); err != nil {
			return nil, nil, err
		}
		if pe := entries[e]; pe != nil {
			var t []string
			_ = json.Unmarshal([]byte(tags), &t)
			pe.Attributes[k] = t
		}
	}
	return entries, rows, aq.Err()
}

// moves returns each entry's overall rank change in an edition (+ is up).
func (s *Store) moves(ctx context.Context, slug string, edition int) (map[string]*int, error) {
	out := map[string]*int{}
	rows, err := s.db.QueryContext(ctx, `SELECT entry, before_rank, after_rank FROM edition_moves
		WHERE ranking=? AND number=?`, slug, edition)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var e string
		var before sql.NullInt64
		var after int
		if err := rows.Scan(&e, &before, &after); err != nil {
			return nil, err
		}
		if before.Valid {
			m := int(before.Int64) - after
			out[e] = &m
		}
	}
	return out, rows.Err()
}

// EvidenceView is one evidence item as pages show it.
type EvidenceView struct {
	Proposal     string
	ID           string
	Claim        events.Text
	SourceURL    string
	SourceName   string
	Section      string
	Excerpt      string
	ObservedOn   string
	ValidForDays int
	StaleAfter   string // "" when it does not expire
	AddedBy      string
	Removed      bool
	Capture      CaptureView
	Drift        DriftView
	Tier         domain.Tier // "" when not stated
}

// DriftView is what the latest scheduled re-check that found an evidence
// item's captured source different recorded. State is domain.DriftNone
// until one does; the other fields are zero where they do not apply.
type DriftView struct {
	State        domain.DriftState
	SHA256       string // the version last seen (with DriftDead: before it went)
	Status       int    // HTTP status of the re-check's response, or of the one that said gone (0: none did)
	QuoteFound   bool   // with DriftChanged
	QuoteChecked bool   // with DriftChanged
	Reason       string // with DriftDead: one of domain.DeadReasons
	At           string // RFC 3339: when that re-check's fetch began
}

// CaptureView is what the capture worker recorded about an evidence item's
// source. State is domain.CaptureNone until a result arrives (and for
// items without a URL); the other fields are zero where they do not apply.
type CaptureView struct {
	State        domain.CaptureState
	SHA256       string // hex SHA-256 of the body: the archived record's key
	FinalURL     string
	Status       int // HTTP status of the final response
	ContentType  string
	Size         int64
	At           string // RFC 3339: when the fetch began (or the failed attempt)
	QuoteFound   bool
	QuoteChecked bool   // false: the excerpt could not be searched (a PDF, say)
	Reason       string // with CaptureFailed: one of domain.CaptureReasons
	// Attempts is how many fetches the worker made before it gave up,
	// with CaptureFailed; 0 for a failure recorded before it counted them.
	Attempts int
}

// Stale reports whether the evidence may be out of date on day now.
func (e EvidenceView) Stale(now time.Time) bool {
	return e.StaleAfter != "" && now.Format(time.DateOnly) > e.StaleAfter
}

// ScoreView is a published score with the evidence behind it.
type ScoreView struct {
	Criterion string
	Score     int
	Proposal  string
	Edition   int
	Rationale events.Text
	Evidence  []EvidenceView
}

// AttributeView is a published attribute with its evidence.
type AttributeView struct {
	Key      string
	Tags     []string
	Proposal string
	Edition  int
	Evidence []EvidenceView
}

// RankPoint is an entry's overall rank and total in one edition.
type RankPoint struct {
	Edition int
	Rank    int
	Total   int
}

// EntryView is an entry with its published scores, evidence, history and
// open proposals.
type EntryView struct {
	Ranking     *domain.Ranking
	Edition     int
	Slug        string
	Name        events.Text
	Category    string
	Website     string
	Description events.Text
	Published   bool
	Total       int
	Rank        int
	CategoryRnk int
	Scores      []ScoreView // in criteria order; missing criteria absent
	Attributes  []AttributeView
	History     []RankPoint
	Proposals   []ProposalSummary // every proposal for the entry, newest first
}
