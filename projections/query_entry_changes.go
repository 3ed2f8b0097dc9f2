package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

// PublishedChange is one published change to an entry, with its edition.
type PublishedChange struct {
	Edition int
	EditionChange
}

// PublishedChanges returns the changes published to entry of ranking in the
// editions after from up to and including to, in edition order and, within
// one, in the edition's order, each with the evidence it cites.
func (s *Store) PublishedChanges(ctx context.Context, ranking, entry string, from, to int) ([]PublishedChange, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.number, c.proposal, c.target, c.from_score, c.to_score,
		c.from_tags, c.to_tags, c.evidence
		FROM edition_changes c WHERE c.ranking=? AND c.entry=? AND c.number>? AND c.number<=?
		ORDER BY c.number, c.pos`, ranking, entry, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []PublishedChange
	cited := map[string][]string{} // proposal → evidence ids
	for rows.Next() {
		c := PublishedChange{EditionChange: EditionChange{Entry: entry}}
		var fs, ts sql.NullInt64
		var ft, tt sql.NullString
		var ev string
		if err := rows.Scan(&c.Edition, &c.Proposal, &c.Target, &fs, &ts, &ft, &tt, &ev); err != nil {
			return nil, err
		}
		c.FromScore, c.ToScore = intPtr(fs), intPtr(ts)
		for _, js := range []struct {
			raw  sql.NullString
			dest *[]string
		}{{ft, &c.FromTags}, {tt, &c.ToTags}} {
			if js.raw.Valid {
				if err := json.Unmarshal([]byte(js.raw.String), js.dest); err != nil {
					return nil, fmt.Errorf("edition %d change %s: tags: %w", c.Edition, c.Proposal, err)
				}
			}
		}
		var ids []string
		if err := json.Unmarshal([]byte(ev), &ids); err != nil {
			return nil, fmt.Errorf("edition %d change %s: evidence: %w", c.Edition, c.Proposal, err)
		}
		cited[c.Proposal] = append(cited[c.Proposal], ids...)
		// The ids ride in the first evidence slots until they are loaded.
		for _, id := range ids {
			c.Evidence = append(c.Evidence, EvidenceView{Proposal: c.Proposal, ID: id})
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return out, nil
	}
	evidence := map[string]EvidenceView{}
	for p := range cited {
		rows, err := s.db.QueryContext(ctx, `SELECT `+evidenceCols+` FROM evidence e WHERE e.proposal=?`, p)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var e EvidenceView
			if err := rows.Scan(e.dest()...); err != nil {
				rows.Close()
				return nil, err
			}
			e.fix()
			evidence[e.Proposal+"/"+e.ID] = e
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
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
