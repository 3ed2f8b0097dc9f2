package projections

import "context"

// CaptureCitedFor reports whether some proposal about one of entries
// ("ranking/entry", as a vendor's scope lists them) has evidence captured
// under the hex SHA-256 sha256, whatever the proposal's state: a vendor
// sees the captures of its own entries' drafts, not another entry's.
func (s *Store) CaptureCitedFor(ctx context.Context, sha256 string, entries []string) (bool, error) {
	if len(entries) == 0 {
		return false, nil
	}
	var ok bool
	err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM evidence e JOIN proposals p ON p.id=e.proposal
		WHERE e.capture_sha256=? AND p.ranking || '/' || p.entry IN (SELECT value FROM json_each(?)))`,
		sha256, jsonText(entries)).Scan(&ok)
	return ok, err
}

// CapturePublished reports whether some published edition cites the
// archived copy whose body has the hex SHA-256 sha256: an evidence item
// captured under it belongs to a change of a published edition (the
// latest or an earlier one). A capture cited only by drafts, or by
// proposals never published, is not.
func (s *Store) CapturePublished(ctx context.Context, sha256 string) (bool, error) {
	var ok bool
	err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM evidence e
		JOIN edition_changes ec ON ec.proposal=e.proposal
		WHERE e.capture_sha256=? AND e.capture_state='captured'
		AND EXISTS (SELECT 1 FROM json_each(ec.evidence) j WHERE j.value=e.evidence_id))`, sha256).Scan(&ok)
	return ok, err
}
