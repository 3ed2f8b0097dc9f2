package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/crossrank/crossrank/events"
)

// EditionMark identifies the published state of one ranking, or of every
// ranking when Ranking is "". It changes when an edition is published, when
// the ranking's definition (weights, scenarios) changes, and when a capture
// or drift result arrives for an evidence item the ranking publishes, and
// at no other event: caches (ETag) key on it; the live push on Seq.
type EditionMark struct {
	Ranking     string
	Edition     int    // newest edition number; for all rankings, the count of editions
	Seq         uint64 // stream sequence of the newest EditionPublished event; 0: none yet
	DefSeq      uint64 // newest stream sequence of the ranking definition(s)
	EvidenceSeq uint64 // newest stream sequence of a capture or drift of published evidence; 0: none
	PublishedAt string // RFC 3339 time of the newest edition; "" before the first
}

// Key is the mark as a string, for hashing into an ETag.
func (m EditionMark) Key() string {
	k := fmt.Sprintf("%s|e%d|s%d|d%d", m.Ranking, m.Edition, m.Seq, m.DefSeq)
	if m.EvidenceSeq > 0 {
		// Only then: marks (and the ETags, exports built from them) of
		// rankings whose evidence has no capture or drift stay as they were.
		k += fmt.Sprintf("|v%d", m.EvidenceSeq)
	}
	return k
}

// EditionMark returns the mark of ranking, or of all rankings for "". An
// unknown ranking returns ErrNotFound.
func (s *Store) EditionMark(ctx context.Context, ranking string) (EditionMark, error) {
	m := EditionMark{Ranking: ranking}
	if ranking == "" {
		err := s.db.QueryRowContext(ctx, `SELECT count(*), coalesce(max(seq), 0),
			coalesce((SELECT published_at FROM editions ORDER BY seq DESC LIMIT 1), ''),
			(SELECT coalesce(max(seq), 0) FROM states WHERE kind='ranking'),
			(SELECT coalesce(max(evidence_seq), 0) FROM rankings) FROM editions`).Scan(
			&m.Edition, &m.Seq, &m.PublishedAt, &m.DefSeq, &m.EvidenceSeq)
		return m, err
	}
	err := s.db.QueryRowContext(ctx, `SELECT r.edition, coalesce(st.seq, 0), r.evidence_seq,
		coalesce((SELECT seq FROM editions WHERE ranking=r.slug AND number=r.edition), 0),
		coalesce((SELECT published_at FROM editions WHERE ranking=r.slug AND number=r.edition), '')
		FROM rankings r LEFT JOIN states st ON st.kind='ranking' AND st.id=r.slug WHERE r.slug=?`, ranking).Scan(
		&m.Edition, &m.DefSeq, &m.EvidenceSeq, &m.Seq, &m.PublishedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return m, ErrNotFound
	}
	return m, err
}

// EditionsSince lists the editions published after stream sequence seq,
// oldest first: what the live push announces.
func (s *Store) EditionsSince(ctx context.Context, seq uint64) ([]EditionSummary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT ranking, number, published_at, publisher, note, seq
		FROM editions WHERE seq > ? ORDER BY seq LIMIT 100`, seq)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []EditionSummary
	for rows.Next() {
		var e EditionSummary
		if err := rows.Scan(&e.Ranking, &e.Number, &e.PublishedAt, &e.Publisher, &e.Note, &e.Seq); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// EditionChange is one change an edition made, with the evidence it cites.
type EditionChange struct {
	Proposal  string
	Entry     string
	EntryName events.Text
	Target    string // "score:<criterion>" or "attr:<key>"
	FromScore *int
	ToScore   *int
	FromTags  []string
	ToTags    []string
	Evidence  []EvidenceView // in the order the change cites them
}

// Kind returns "score" or "attr"; Key the criterion or attribute key.
func (c EditionChange) Kind() string { k, _, _ := strings.Cut(c.Target, ":"); return k }

// Key returns the criterion or attribute key the change targets.
func (c EditionChange) Key() string { _, k, _ := strings.Cut(c.Target, ":"); return k }

// EditionMove is an entry's place before and after an edition in one scope.
type EditionMove struct {
	Entry       string
	Name        events.Text
	Category    string
	Before      *int // nil: new in this edition
	After       int
	BeforeTotal *int
	AfterTotal  int
}

// Delta is the rank change (+ is up); ok is false for a new entry.
func (m EditionMove) Delta() (int, bool) {
	if m.Before == nil {
		return 0, false
	}
	return *m.Before - m.After, true
}

// EditionDetail is one edition with its changelog.
type EditionDetail struct {
	EditionSummary
	Title       events.Text // the ranking's title
	PreviewHash string
	AuditHead   string
	Changes     []EditionChange // in the edition's order
	Moves       []EditionMove   // overall, by rank after the edition
}

// Edition returns edition number of ranking with its changes (and the
// evidence behind each) and the overall rank moves.
func (s *Store) Edition(ctx context.Context, ranking string, number int) (EditionDetail, error) {
	var d EditionDetail
	var props string
	err := s.db.QueryRowContext(ctx, `SELECT ed.ranking, ed.number, ed.published_at, ed.publisher, ed.proposals,
		ed.snapshot_hash, ed.note, ed.seq, ed.preview_hash, ed.audit_head, r.title_zh, r.title_en,
		(SELECT count(*) FROM edition_changes c WHERE c.ranking=ed.ranking AND c.number=ed.number)
		FROM editions ed JOIN rankings r ON r.slug=ed.ranking WHERE ed.ranking=? AND ed.number=?`, ranking, number).Scan(
		&d.Ranking, &d.Number, &d.PublishedAt, &d.Publisher, &props, &d.SnapshotHash, &d.Note, &d.Seq,
		&d.PreviewHash, &d.AuditHead, &d.Title.Zh, &d.Title.En, &d.EditionSummary.Changes)
	if errors.Is(err, sql.ErrNoRows) {
		return d, ErrNotFound
	}
	if err != nil {
		return d, err
	}
	_ = json.Unmarshal([]byte(props), &d.Proposals)
	if d.Changes, err = s.editionChanges(ctx, ranking, number); err != nil {
		return d, err
	}
	d.Moves, err = s.Moves(ctx, ranking, number, "overall")
	return d, err
}

func (s *Store) editionChanges(ctx context.Context, ranking string, number int) ([]EditionChange, error) {
	evidence, err := s.editionEvidence(ctx, ranking, number)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT c.proposal, c.entry, coalesce(e.name_zh, c.entry), coalesce(e.name_en, c.entry),
		c.target, c.from_score, c.to_score, c.from_tags, c.to_tags, c.evidence
		FROM edition_changes c LEFT JOIN entries e ON e.ranking=c.ranking AND e.slug=c.entry
		WHERE c.ranking=? AND c.number=? ORDER BY c.pos`, ranking, number)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []EditionChange
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
		if ft.Valid {
			_ = json.Unmarshal([]byte(ft.String), &c.FromTags)
		}
		if tt.Valid {
			_ = json.Unmarshal([]byte(tt.String), &c.ToTags)
		}
		var ids []string
		_ = json.Unmarshal([]byte(ev), &ids)
		for _, id := range ids {
			if e, ok := evidence[c.Proposal+"/"+id]; ok {
				c.Evidence = append(c.Evidence, e)
			}
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// editionEvidence loads every evidence item of the edition's proposals, by
// "proposal/id".
func (s *Store) editionEvidence(ctx context.Context, ranking string, number int) (map[string]EvidenceView, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+evidenceCols+` FROM evidence e
		WHERE e.proposal IN (SELECT proposal FROM edition_changes WHERE ranking=? AND number=?)`, ranking, number)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]EvidenceView{}
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

// Moves returns the rank moves of an edition in scope ("overall",
// "category" or "scenario:<slug>"), by rank after the edition. In a
// scenario's scope the totals are left zero: a scenario ranks by its own
// weights.
func (s *Store) Moves(ctx context.Context, ranking string, number int, scope string) ([]EditionMove, error) {
	var cols string
	args := []any{ranking, number}
	switch scenario, ok := strings.CutPrefix(scope, "scenario:"); {
	case scope == "overall":
		cols = "m.before_rank, m.after_rank AS a, m.before_total, m.after_total"
	case scope == "category":
		cols = "m.before_category_rank, m.after_category_rank AS a, m.before_total, m.after_total"
	case ok && plainSlug(scenario):
		// SQLite picks the scenario's pair out of the JSON object: as cheap
		// as decoding it in Go, and the ordering stays in the query.
		cols = "m.scenarios ->> ?, m.scenarios ->> ? AS a, NULL, 0"
		args = []any{`$."` + scenario + `"[0]`, `$."` + scenario + `"[1]`, ranking, number}
	default:
		return nil, nil // no such scope (a scenario's slug is plain)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT m.entry, coalesce(e.name_zh, m.entry), coalesce(e.name_en, m.entry),
		coalesce(e.category, ''), `+cols+`
		FROM edition_moves m LEFT JOIN entries e ON e.ranking=m.ranking AND e.slug=m.entry
		WHERE m.ranking=? AND m.number=? AND a IS NOT NULL ORDER BY a, m.entry`, args...)
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
