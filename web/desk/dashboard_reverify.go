package desk

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// reverifySection lists, for every ranking, the evidence behind published
// values whose source a scheduled re-check found changed or gone; nil when
// there is none, and the dashboard shows no such queue.
func (d *Desk) reverifySection(ctx context.Context, p ui.Page, labels *labelCache) (*queueSection, error) {
	all, err := d.read.SourcesToReverify(ctx, "")
	if err != nil || len(all) == 0 {
		return nil, err
	}
	sec := &queueSection{ID: "reverify", Title: p.T("desk.queue.reverify"), Count: len(all)}
	for _, s := range all {
		lb := labels.get(ctx, s.Ranking)
		ev := s.Evidence
		var action string
		if p.Has(domain.RoleEditor) {
			action = ReverifyPath(s.Ranking, s.Entry, ev.Proposal, ev.ID)
		}
		sec.Items = append(sec.Items, queueItem{
			Action: action, ALabel: p.T("desk.reverify.open"),
			Href:   ProposalPath(ev.Proposal) + "#evidence-" + ev.ID,
			Title:  entryLabel(labels.entryName(ctx, p.Lang, s.Ranking, s.Entry, s.EntryName), s.Entry) + " · " + lb.target(p.Lang, s.Target),
			Detail: p.T("desk.stale.detail", ev.ID, ev.Claim.In(p.Lang)),
			Note:   driftNote(p, ev.Drift),
			Badge:  "stale",
			Status: p.T("desk.reverify.status"),
			Extra:  entryPath(s.Ranking, s.Entry),
			XLabel: p.T("desk.stale.entry"),
		})
	}
	return sec, nil
}

// driftNote says what the latest re-check found at a source, and when.
func driftNote(p ui.Page, d projections.DriftView) string {
	on := p.Date(parseTime(d.At))
	switch {
	case d.State == domain.DriftDead:
		return p.T("desk.reverify.dead", on, sourceReason(p, d.Reason))
	case d.QuoteChecked && !d.QuoteFound:
		return p.T("desk.reverify.quote_gone", on)
	}
	return p.T("desk.reverify.changed", on)
}
