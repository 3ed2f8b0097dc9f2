package projections

import (
	"context"
)

// SourceToReverify is an evidence item behind a published score or
// attribute whose captured source a re-check found changed or gone.
type SourceToReverify struct {
	Ranking   string
	Entry     string
	EntryName string
	Target    string // "score:<criterion>" or "attr:<key>"
	Evidence  EvidenceView
}

// SourcesToReverify returns the evidence items behind the ranking's
// current published values whose source drifted (Evidence.Drift.State is
// changed or dead), the items whose quote is gone first, then the dead
// ones, then by entry and target. An item cited for two targets is listed
// for each. Ranking "" lists every ranking's, ranking by ranking (by
// slug), in one query: the desk's dashboard shows them all on every visit.
func (s *Store) SourcesToReverify(ctx context.Context, ranking string) ([]SourceToReverify, error) {
	where, args := "", []any{}
	if ranking != "" {
		where, args = "pe.ranking=? AND ", []any{ranking}
	}
	rows, err := s.db.QueryContext(ctx, `SELECT pe.ranking, pe.entry, en.name_zh, pe.target, `+evidenceCols+`
		FROM published_evidence pe JOIN evidence e ON e.proposal=pe.proposal AND e.evidence_id=pe.evidence_id
		JOIN entries en ON en.ranking=pe.ranking AND en.slug=pe.entry
		WHERE `+where+`e.drift_state<>'none'
		ORDER BY pe.ranking, CASE WHEN e.drift_state='changed' AND e.drift_quote_checked=1 AND e.drift_quote_found=0 THEN 0
			WHEN e.drift_state='dead' THEN 1 ELSE 2 END, pe.entry, pe.target, e.proposal, e.evidence_id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SourceToReverify
	for rows.Next() {
		var v SourceToReverify
		if err := rows.Scan(append([]any{&v.Ranking, &v.Entry, &v.EntryName, &v.Target}, v.Evidence.dest()...)...); err != nil {
			return nil, err
		}
		v.Evidence.fix()
		out = append(out, v)
	}
	return out, rows.Err()
}

// SourceRef names one evidence item.
type SourceRef struct {
	Proposal string
	Evidence string
}

// PublishedCaptures returns the evidence items, of every ranking, behind a
// current published value whose source was captured: what the scheduled
// re-check fetches again. Each item is listed once, in a stable order.
func (s *Store) PublishedCaptures(ctx context.Context) ([]SourceRef, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT pe.proposal, pe.evidence_id FROM published_evidence pe
		JOIN evidence e ON e.proposal=pe.proposal AND e.evidence_id=pe.evidence_id
		WHERE e.capture_state='captured' ORDER BY pe.proposal, pe.evidence_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SourceRef
	for rows.Next() {
		var r SourceRef
		if err := rows.Scan(&r.Proposal, &r.Evidence); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
