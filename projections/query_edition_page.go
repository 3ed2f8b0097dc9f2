package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The edition page reads an edition a page at a time: its overview (the
// counts, kept per edition), the first rows of the ranking after it, its
// largest moves and new entries, and one page of its changes grouped by
// entry. Each read walks an index of migration 029, so a page of an
// edition of 80,000 changes costs its rows. Edition (query_public.go)
// still loads the whole edition for the downloads and the API.

// EditionOverview is an edition without its changes and moves, with the
// counts its page shows first.
type EditionOverview struct {
	EditionDetail  // Changes and Moves left empty; EditionSummary.Changes counts every change
	EntriesChanged int
	EntriesAdded   int // new in the edition
	EntriesUp      int // ranked before and after, higher after
	EntriesDown    int
	Ranked         int            // entries in the overall ranking after the edition
	Targets        map[string]int // changes per target ("score:<criterion>", "attr:<key>"); shared, read only
}

// EditionOverview returns edition number of ranking with its counts. The
// counts scan the edition once: an edition never changes once projected
// (its row, changes and moves commit together), so the answer is kept for
// the few editions asked last and shared by every caller.
func (s *Store) EditionOverview(ctx context.Context, ranking string, number int) (EditionOverview, error) {
	return s.overviews.get(ranking, number, func() (EditionOverview, error) {
		// Not the caller's context: the answer is shared with whoever
		// waits for it, and a cancelled request must not fail theirs.
		return s.editionOverview(context.WithoutCancel(ctx), ranking, number)
	})
}

func (s *Store) editionOverview(ctx context.Context, ranking string, number int) (EditionOverview, error) {
	var o EditionOverview
	var err error
	if o.EditionDetail, err = s.editionHead(ctx, ranking, number); err != nil {
		return o, err
	}
	o.Targets = map[string]int{}
	rows, err := s.db.QueryContext(ctx, `SELECT target, count(*) FROM edition_changes
		WHERE ranking=? AND number=? GROUP BY target`, ranking, number)
	if err != nil {
		return o, err
	}
	defer rows.Close()
	o.EditionSummary.Changes = 0
	for rows.Next() {
		var target string
		var n int
		if err := rows.Scan(&target, &n); err != nil {
			return o, err
		}
		o.Targets[target] = n
		o.EditionSummary.Changes += n
	}
	if err := rows.Err(); err != nil {
		return o, err
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(DISTINCT entry) FROM edition_changes WHERE ranking=? AND number=?`,
		ranking, number).Scan(&o.EntriesChanged); err != nil {
		return o, err
	}
	err = s.db.QueryRowContext(ctx, `SELECT count(*), count(*) FILTER (WHERE before_rank IS NULL),
		count(*) FILTER (WHERE before_rank > after_rank), count(*) FILTER (WHERE before_rank < after_rank)
		FROM edition_moves WHERE ranking=? AND number=?`, ranking, number).Scan(
		&o.Ranked, &o.EntriesAdded, &o.EntriesUp, &o.EntriesDown)
	return o, err
}

// editionHead reads an edition's row: no changes, no moves.
func (s *Store) editionHead(ctx context.Context, ranking string, number int) (EditionDetail, error) {
	var d EditionDetail
	var props string
	err := s.db.QueryRowContext(ctx, `SELECT ed.ranking, ed.number, ed.published_at, ed.publisher, ed.proposals,
		ed.snapshot_hash, ed.note, ed.seq, ed.preview_hash, ed.audit_head, r.title_zh, r.title_en
		FROM editions ed JOIN rankings r ON r.slug=ed.ranking WHERE ed.ranking=? AND ed.number=?`, ranking, number).Scan(
		&d.Ranking, &d.Number, &d.PublishedAt, &d.Publisher, &props, &d.SnapshotHash, &d.Note, &d.Seq,
		&d.PreviewHash, &d.AuditHead, &d.Title.Zh, &d.Title.En)
	if errors.Is(err, sql.ErrNoRows) {
		return d, ErrNotFound
	}
	if err != nil {
		return d, err
	}
	if err := json.Unmarshal([]byte(props), &d.Proposals); err != nil {
		return d, fmt.Errorf("edition %s %d: proposals: %w", ranking, number, err)
	}
	return d, nil
}

// EditionRanks returns the first limit rows of the overall ranking after
// the edition, by rank.
func (s *Store) EditionRanks(ctx context.Context, ranking string, number, limit int) ([]EditionMove, error) {
	return s.overallMoves(ctx, ranking, number, "m.after_rank IS NOT NULL", "m.after_rank, m.entry", limit)
}

// EditionLargestMoves returns the limit entries whose overall rank the
// edition moved furthest (up or down), ties by rank after; new entries
// did not move.
func (s *Store) EditionLargestMoves(ctx context.Context, ranking string, number, limit int) ([]EditionMove, error) {
	// The terms match the partial index edition_moves_by_size exactly.
	return s.overallMoves(ctx, ranking, number, "m.before_rank IS NOT NULL AND m.before_rank <> m.after_rank",
		"abs(m.before_rank - m.after_rank) DESC, m.after_rank", limit)
}

// EditionNewEntries returns the first limit entries new in the edition,
// by rank after it.
func (s *Store) EditionNewEntries(ctx context.Context, ranking string, number, limit int) ([]EditionMove, error) {
	return s.overallMoves(ctx, ranking, number, "m.before_rank IS NULL", "m.after_rank", limit)
}

// overallMoves reads overall moves of an edition: where and order are
// constant SQL over m (edition_moves).
func (s *Store) overallMoves(ctx context.Context, ranking string, number int, where, order string, limit int) ([]EditionMove, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT m.entry, coalesce(e.name_zh, m.entry), coalesce(e.name_en, m.entry),
		coalesce(e.category, ''), m.before_rank, m.after_rank, m.before_total, m.after_total
		FROM edition_moves m LEFT JOIN entries e ON e.ranking=m.ranking AND e.slug=m.entry
		WHERE m.ranking=? AND m.number=? AND `+where+` ORDER BY `+order+` LIMIT ?`, ranking, number, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []EditionMove
	for rows.Next() {
		var m EditionMove
		var b, bt sql.NullInt64
		if err := rows.Scan(&m.Entry, &m.Name.Zh, &m.Name.En, &m.Category, &b, &m.After, &bt, &m.AfterTotal); err != nil {
			return nil, err
		}
		m.Before, m.BeforeTotal = intPtr(b), intPtr(bt)
		out = append(out, m)
	}
	return out, rows.Err()
}

// ChangeFilter narrows an edition's changes to one entry, one target
// ("score:<criterion>" or "attr:<key>"), both, or neither ("").
type ChangeFilter struct {
	Entry  string
	Target string
}

func (f ChangeFilter) where() (string, []any) {
	var sql []string
	var args []any
	if f.Entry != "" {
		sql, args = append(sql, " AND c.entry=?"), append(args, f.Entry)
	}
	if f.Target != "" {
		sql, args = append(sql, " AND c.target=?"), append(args, f.Target)
	}
	return strings.Join(sql, ""), args
}

// EditionChangesCount counts the edition's changes that f keeps: from the
// overview without an entry, else from the entry's few rows.
func (s *Store) EditionChangesCount(ctx context.Context, ranking string, number int, f ChangeFilter) (int, error) {
	if f.Entry == "" {
		o, err := s.EditionOverview(ctx, ranking, number)
		if f.Target == "" {
			return o.EditionSummary.Changes, err
		}
		return o.Targets[f.Target], err
	}
	where, args := f.where()
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM edition_changes c WHERE c.ranking=? AND c.number=?`+where,
		append([]any{ranking, number}, args...)...).Scan(&n)
	return n, err
}

// EditionChangesPage returns limit of the edition's changes that f keeps,
// after the first offset, grouped by entry (by slug) and in the edition's
// order within one, each with the evidence it cites.
func (s *Store) EditionChangesPage(ctx context.Context, ranking string, number int, f ChangeFilter, offset, limit int) ([]EditionChange, error) {
	where, args := f.where()
	rows, err := s.db.QueryContext(ctx, `SELECT c.proposal, c.entry, coalesce(e.name_zh, c.entry), coalesce(e.name_en, c.entry),
		c.target, c.from_score, c.to_score, c.from_tags, c.to_tags, c.evidence
		FROM edition_changes c LEFT JOIN entries e ON e.ranking=c.ranking AND e.slug=c.entry
		WHERE c.ranking=? AND c.number=?`+where+` ORDER BY c.entry, c.pos LIMIT ? OFFSET ?`,
		append(append([]any{ranking, number}, args...), limit, offset)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []EditionChange
	cited := map[string]bool{}
	for rows.Next() {
		var c EditionChange
		var fs, ts sql.NullInt64
		var ft, tt sql.NullString
		var ev string
		if err := rows.Scan(&c.Proposal, &c.Entry, &c.EntryName.Zh, &c.EntryName.En, &c.Target,
			&fs, &ts, &ft, &tt, &ev); err != nil {
			return nil, err
		}
		c.FromScore, c.ToScore = intPtr(fs), intPtr(ts)
		for _, js := range []struct {
			raw  sql.NullString
			dest *[]string
		}{{ft, &c.FromTags}, {tt, &c.ToTags}} {
			if js.raw.Valid {
				if err := json.Unmarshal([]byte(js.raw.String), js.dest); err != nil {
					return nil, fmt.Errorf("edition %d change %s: tags: %w", number, c.Proposal, err)
				}
			}
		}
		var ids []string
		if err := json.Unmarshal([]byte(ev), &ids); err != nil {
			return nil, fmt.Errorf("edition %d change %s: evidence: %w", number, c.Proposal, err)
		}
		// The ids ride in the evidence slots until they are loaded.
		for _, id := range ids {
			c.Evidence = append(c.Evidence, EvidenceView{Proposal: c.Proposal, ID: id})
		}
		cited[c.Proposal] = true
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	evidence, err := s.evidenceOf(ctx, cited)
	if err != nil {
		return nil, err
	}
	for i := range out {
		loaded := out[i].Evidence[:0]
		for _, ref := range out[i].Evidence {
			if e, ok := evidence[ref.Proposal+"/"+ref.ID]; ok {
				loaded = append(loaded, e)
			}
		}
		out[i].Evidence = loaded
	}
	return out, nil
}

// evidenceOf loads the evidence of proposals, by "proposal/id".
func (s *Store) evidenceOf(ctx context.Context, proposals map[string]bool) (map[string]EvidenceView, error) {
	out := map[string]EvidenceView{}
	if len(proposals) == 0 {
		return out, nil
	}
	args := make([]any, 0, len(proposals))
	for p := range proposals {
		args = append(args, p)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+evidenceCols+` FROM evidence e
		WHERE e.proposal IN (?`+strings.Repeat(",?", len(args)-1)+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var e EvidenceView
		if err := rows.Scan(e.dest()...); err != nil {
			return nil, err
		}
		e.fix()
		out[e.Proposal+"/"+e.ID] = e
	}
	return out, rows.Err()
}

// EditionEntryChanges counts the edition's changes to each of entries.
func (s *Store) EditionEntryChanges(ctx context.Context, ranking string, number int, entries []string) (map[string]int, error) {
	out := map[string]int{}
	if len(entries) == 0 {
		return out, nil
	}
	args := []any{ranking, number}
	for _, e := range entries {
		args = append(args, e)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT entry, count(*) FROM edition_changes
		WHERE ranking=? AND number=? AND entry IN (?`+strings.Repeat(",?", len(entries)-1)+`) GROUP BY entry`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var e string
		var n int
		if err := rows.Scan(&e, &n); err != nil {
			return nil, err
		}
		out[e] = n
	}
	return out, rows.Err()
}

// EntryNamed returns the slug of ranking's entry whose slug is q, or
// else whose English name (any case) or Chinese name is q; ok is false
// for none. A name is looked for among the ranking's entries one by one:
// it is asked for by a reader's filter, never by a page's own links,
// which name the slug.
func (s *Store) EntryNamed(ctx context.Context, ranking, q string) (slug string, ok bool, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT slug FROM entries WHERE ranking=? AND slug=?`, ranking, q).Scan(&slug)
	if errors.Is(err, sql.ErrNoRows) {
		err = s.db.QueryRowContext(ctx, `SELECT slug FROM entries WHERE ranking=? AND (name_en=? COLLATE NOCASE OR name_zh=?)
			ORDER BY slug LIMIT 1`, ranking, q, q).Scan(&slug)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return slug, err == nil, err
}

// EditionMovesOf returns the overall moves of entries in the edition, by
// entry; an entry the edition did not rank is absent.
func (s *Store) EditionMovesOf(ctx context.Context, ranking string, number int, entries []string) (map[string]EditionMove, error) {
	out := map[string]EditionMove{}
	if len(entries) == 0 {
		return out, nil
	}
	in := "?" + strings.Repeat(",?", len(entries)-1)
	args := []any{ranking, number}
	for _, e := range entries {
		args = append(args, e)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT entry, before_rank, after_rank FROM edition_moves
		WHERE ranking=? AND number=? AND entry IN (`+in+`) AND after_rank IS NOT NULL`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		m := EditionMove{}
		var b sql.NullInt64
		if err := rows.Scan(&m.Entry, &b, &m.After); err != nil {
			return nil, err
		}
		m.Before = intPtr(b)
		out[m.Entry] = m
	}
	return out, rows.Err()
}
