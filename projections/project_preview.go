package projections

import (
	"fmt"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// projectPreview keeps a preview's row (the publish page's list, the
// preview page's lookup by the token's hash) and whom and what it names.
// The audit line never carries the token's hash.
func (p *projector) projectPreview(ev events.Event, pv *domain.PreviewLink, a *auditRow) error {
	a.ranking = pv.Created.Ranking
	switch d := ev.Data.(type) {
	case *events.PreviewCreated:
		a.say("preview_created", "proposals", len(d.Proposals), "expires_at", d.ExpiresAt)
		a.after = d.Note
		if err := p.exec(`INSERT INTO previews(id, ranking, proposals, entries, vendors, note, token_hash, expires_at,
			created_by, created_at, created_seq, revoked_at, revoked_by, openings, last_opened_at)
			VALUES (?,?,?,?,?,?,?,?,?,?,?,'','',0,'')`, pv.ID, d.Ranking, jsonText(orEmpty(d.Proposals)),
			jsonText(orEmpty(d.Entries)), jsonText(orEmpty(d.Vendors)), d.Note, d.TokenHash, d.ExpiresAt,
			ev.Actor, ts(ev.Time), ev.Sequence); err != nil {
			return err
		}
		for kind, names := range map[string][]string{"vendor": d.Vendors, "entry": d.Entries} {
			for _, n := range names {
				if err := p.exec(`INSERT OR IGNORE INTO preview_targets(preview, kind, name, ranking) VALUES (?,?,?,?)`,
					pv.ID, kind, n, d.Ranking); err != nil {
					return err
				}
			}
		}
		return nil
	case *events.PreviewRevoked:
		a.say("preview_revoked")
		return p.exec(`UPDATE previews SET revoked_at=?, revoked_by=? WHERE id=?`, ts(ev.Time), ev.Actor, pv.ID)
	case *events.PreviewOpened:
		a.say("preview_opened")
		return p.exec(`UPDATE previews SET openings=?, last_opened_at=? WHERE id=?`, pv.Openings,
			pv.LastOpened.UTC().Format(time.RFC3339), pv.ID)
	}
	return fmt.Errorf("%w: no projection for %s", events.ErrUnknownType, ev.Type)
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
