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
		return p.previewToVendors(ev, pv.ID, d.Ranking, "preview_sent", d.ExpiresAt, true)
	case *events.PreviewRevoked:
		a.say("preview_revoked")
		return p.exec(`UPDATE previews SET revoked_at=?, revoked_by=? WHERE id=?`, ts(ev.Time), ev.Actor, pv.ID)
	case *events.PreviewOpened:
		a.say("preview_opened")
		if err := p.exec(`UPDATE previews SET openings=?, last_opened_at=? WHERE id=?`, pv.Openings,
			pv.LastOpened.UTC().Format(time.RFC3339), pv.ID); err != nil {
			return err
		}
		return p.previewToVendors(ev, pv.ID, pv.Created.Ranking, "preview_opened", "", false)
	}
	return fmt.Errorf("%w: no projection for %s", events.ErrUnknownType, ev.Type)
}

// previewToVendors puts a preview sent to vendors on the contact timeline
// of each changed entry that is one of theirs ("preview_sent", then each
// folded "preview_opened": the link names no one, so an opening is the
// preview's, not a vendor's), and, when it is sent, in each such vendor's
// inbox. A preview named to no vendor is the editors' own business.
func (p *projector) previewToVendors(ev events.Event, id, ranking, kind, detail string, inbox bool) error {
	if err := p.exec(`INSERT INTO contact_timeline
		SELECT t.ranking, t.name, ?, ?, ?, min(v.name), ?, ?, ''
		FROM preview_targets t JOIN preview_targets v ON v.preview = t.preview AND v.kind = 'vendor'
		JOIN vendor_entries ve ON ve.username = v.name AND ve.ranking = t.ranking AND ve.entry = t.name
		WHERE t.preview = ? AND t.kind = 'entry' GROUP BY t.ranking, t.name
		ON CONFLICT DO NOTHING`, ev.Sequence, kind, ts(ev.Time), id, detail, id); err != nil {
		return err
	}
	if !inbox {
		return nil
	}
	return p.exec(`INSERT INTO inbox SELECT name, ?, 'vendor_preview', ?, '', ?, ?, ? FROM preview_targets
		WHERE preview = ? AND kind = 'vendor' ON CONFLICT DO NOTHING`, ev.Sequence, ranking, ev.Actor, ts(ev.Time), detail, id)
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
