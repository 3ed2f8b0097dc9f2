package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// EditionSnapshot is an edition as it was published: its canonical
// snapshot and the evidence behind every value it holds. Everything in it
// is fixed when the edition is published, so what is built from it (the
// downloads) is the same bytes for as long as the edition exists.
type EditionSnapshot struct {
	Ranking      string
	Number       int
	PublishedAt  string // RFC 3339
	SnapshotHash string // hex SHA-256 of Canonical
	Title        events.Text
	// Canonical is the snapshot's canonical JSON, as stored and hashed.
	Canonical []byte
	Snapshot  domain.Snapshot
	// Evidence lists, per entry and target ("score:<criterion>" or
	// "attr:<key>"; see EvidenceKey), the evidence behind the value at this
	// edition as "<proposal>/<evidence id>", in the order the change cited it.
	Evidence map[string][]string
}

// EvidenceKey is the key of Evidence for entry and target.
func EvidenceKey(entry, target string) string { return entry + "\x00" + target }

// snapshotMemoSize is how many decoded snapshots PublishedSnapshot keeps:
// a reader's pages ask for the newest edition, and "why it moved" for it
// and the one before.
const snapshotMemoSize = 4

// PublishedSnapshot returns the snapshot edition number of ranking
// published, decoded once and shared by every caller: read it, never
// change it. The compare page, the badges and "why it moved" read it on
// every request; decoding it each time cost about a second at 10,000
// entries, whatever the page showed (issue 42). ErrNotFound when there is
// no such edition.
func (s *Store) PublishedSnapshot(ctx context.Context, ranking string, number int) (*domain.Snapshot, error) {
	return s.snapshots.get(ranking, number, func() (*domain.Snapshot, error) {
		// Not the caller's context: the answer is shared with whoever
		// waits for it, and a cancelled request must not fail theirs.
		ctx := context.WithoutCancel(ctx)
		var snap []byte
		err := s.db.QueryRowContext(ctx, `SELECT snapshot FROM editions WHERE ranking=? AND number=?`, ranking, number).Scan(&snap)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNotFound
		}
		if err != nil {
			return nil, err
		}
		var d domain.Snapshot
		if err := json.Unmarshal(snap, &d); err != nil {
			return nil, fmt.Errorf("edition %s/%d: snapshot: %w", ranking, number, err)
		}
		return &d, nil
	})
}

// EditionSnapshot returns edition number of ranking as it was published;
// ErrNotFound when there is no such edition.
func (s *Store) EditionSnapshot(ctx context.Context, ranking string, number int) (EditionSnapshot, error) {
	d := EditionSnapshot{Ranking: ranking, Number: number, Evidence: map[string][]string{}}
	var snap string
	err := s.db.QueryRowContext(ctx, `SELECT ed.published_at, ed.snapshot, ed.snapshot_hash, r.title_zh, r.title_en
		FROM editions ed JOIN rankings r ON r.slug=ed.ranking WHERE ed.ranking=? AND ed.number=?`, ranking, number).Scan(
		&d.PublishedAt, &snap, &d.SnapshotHash, &d.Title.Zh, &d.Title.En)
	if errors.Is(err, sql.ErrNoRows) {
		return d, ErrNotFound
	}
	if err != nil {
		return d, err
	}
	d.Canonical = []byte(snap)
	if err := json.Unmarshal(d.Canonical, &d.Snapshot); err != nil {
		return d, fmt.Errorf("edition %s/%d: snapshot: %w", ranking, number, err)
	}
	// A value's evidence is that of the newest change to it up to this
	// edition: later editions replace it, earlier ones do not count.
	rows, err := s.db.QueryContext(ctx, `SELECT proposal, entry, target, evidence FROM edition_changes
		WHERE ranking=? AND number<=? ORDER BY number, pos`, ranking, number)
	if err != nil {
		return d, err
	}
	defer rows.Close()
	for rows.Next() {
		var proposal, entry, target, ev string
		if err := rows.Scan(&proposal, &entry, &target, &ev); err != nil {
			return d, err
		}
		var ids []string
		if err := json.Unmarshal([]byte(ev), &ids); err != nil {
			return d, fmt.Errorf("edition %s/%d: evidence of %s %s: %w", ranking, number, entry, target, err)
		}
		refs := make([]string, 0, len(ids))
		for _, id := range ids {
			refs = append(refs, proposal+"/"+id)
		}
		d.Evidence[EvidenceKey(entry, target)] = refs
	}
	return d, rows.Err()
}
