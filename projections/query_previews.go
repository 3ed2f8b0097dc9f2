package projections

import (
	"context"
	"encoding/json"
	"time"

	"github.com/crossrank/crossrank/domain"
)

// PreviewRow is one embargoed preview as the publish page lists it. The
// token's hash is never part of it: only PreviewByHash reads that column.
type PreviewRow struct {
	ID, Ranking, Note               string
	Proposals, Entries, Vendors     []string
	ExpiresAt                       string
	CreatedBy, CreatedAt, RevokedAt string
	RevokedBy, LastOpenedAt         string
	Openings                        int
}

// Status returns the preview's status at now: revoked, expired or active.
func (p PreviewRow) Status(now time.Time) string {
	if p.RevokedAt != "" {
		return domain.PreviewRevoked
	}
	if at, err := time.Parse(time.RFC3339, p.ExpiresAt); err != nil || !now.Before(at) {
		return domain.PreviewExpired
	}
	return domain.PreviewActive
}

const previewCols = `id, ranking, note, proposals, entries, vendors, expires_at, created_by, created_at, revoked_at,
	revoked_by, last_opened_at, openings`

// Previews returns a ranking's previews, newest first, limit from offset,
// and how many there are in all (index previews_ranking, migration 023).
func (s *Store) Previews(ctx context.Context, ranking string, limit, offset int) ([]PreviewRow, int, error) {
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM previews WHERE ranking=?`, ranking).Scan(&total); err != nil {
		return nil, 0, err
	}
	out, err := s.previews(ctx, `SELECT `+previewCols+` FROM previews WHERE ranking=? ORDER BY created_seq DESC LIMIT ? OFFSET ?`,
		ranking, limit, offset)
	return out, total, err
}

// PreviewByHash returns the preview whose link's token hashes to hash;
// found is false when there is none. The lookup is by the hash, never by
// the token, so its timing says nothing about any token's bytes.
func (s *Store) PreviewByHash(ctx context.Context, hash string) (PreviewRow, bool, error) {
	out, err := s.previews(ctx, `SELECT `+previewCols+` FROM previews WHERE token_hash=?`, hash)
	if err != nil || len(out) == 0 {
		return PreviewRow{}, false, err
	}
	return out[0], true, nil
}

// PreviewByID returns one preview; found is false when there is none.
func (s *Store) PreviewByID(ctx context.Context, id string) (PreviewRow, bool, error) {
	out, err := s.previews(ctx, `SELECT `+previewCols+` FROM previews WHERE id=?`, id)
	if err != nil || len(out) == 0 {
		return PreviewRow{}, false, err
	}
	return out[0], true, nil
}

// PreviewsSent returns the previews of ranking that name target, newest
// first: kind "entry" for the previews changing an entry (its contact
// timeline), kind "vendor" for those sent to a user (their inbox).
func (s *Store) PreviewsSent(ctx context.Context, kind, ranking, target string) ([]PreviewRow, error) {
	return s.previews(ctx, `SELECT `+previewCols+` FROM previews WHERE id IN
		(SELECT preview FROM preview_targets WHERE kind=? AND ranking=? AND name=?) ORDER BY created_seq DESC`,
		kind, ranking, target)
}

func (s *Store) previews(ctx context.Context, q string, args ...any) ([]PreviewRow, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []PreviewRow
	for rows.Next() {
		var p PreviewRow
		var proposals, entries, vendors string
		if err := rows.Scan(&p.ID, &p.Ranking, &p.Note, &proposals, &entries, &vendors, &p.ExpiresAt, &p.CreatedBy,
			&p.CreatedAt, &p.RevokedAt, &p.RevokedBy, &p.LastOpenedAt, &p.Openings); err != nil {
			return nil, err
		}
		for _, l := range []struct {
			s   string
			out *[]string
		}{{proposals, &p.Proposals}, {entries, &p.Entries}, {vendors, &p.Vendors}} {
			if err := json.Unmarshal([]byte(l.s), l.out); err != nil {
				return nil, err
			}
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
