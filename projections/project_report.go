package projections

import (
	"fmt"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// projectReport keeps a report's row: the triage queue and the public
// corrections log read it.
func (p *projector) projectReport(ev events.Event, r *domain.Report, a *auditRow) error {
	a.ranking, a.entry = r.Opened.Ranking, r.Opened.Entry
	switch d := ev.Data.(type) {
	case *events.ReportOpened:
		a.say("report_opened")
		a.after = d.Text
		return p.exec(`INSERT INTO reports(id, ranking, entry, criterion, evidence, kind, text, status, reason, proposal,
			duplicate_of, folded, opened_at, opened_seq, decided_at, decided_seq, decided_by)
			VALUES (?,?,?,?,?,?,?,?,'','','',0,?,?,'',0,'')`, r.ID, d.Ranking, d.Entry, d.Criterion, d.Evidence, d.Kind, d.Text,
			domain.ReportOpen, ts(ev.Time), ev.Sequence)
	case *events.ReportFolded:
		a.say("report_folded")
		return p.exec(`UPDATE reports SET folded=? WHERE id=?`, r.Folded, r.ID)
	case *events.ReportAccepted:
		a.proposal = d.Proposal
		a.say("report_accepted", "proposal", d.Proposal)
		if err := p.notifyVendorsOfReport(ev, r, d.Proposal); err != nil {
			return err
		}
	case *events.ReportDeclined:
		a.say("report_declined", "reason", d.Reason)
		a.after = d.Reason
	case *events.ReportMarkedDuplicate:
		a.say("report_duplicate", "of", d.Of)
	default:
		return fmt.Errorf("%w: no projection for %s", events.ErrUnknownType, ev.Type)
	}
	return p.exec(`UPDATE reports SET status=?, reason=?, proposal=?, duplicate_of=?, decided_at=?, decided_seq=?, decided_by=?
		WHERE id=?`, r.Status, r.Reason, r.Proposal, r.Of, ts(ev.Time), ev.Sequence, ev.Actor, r.ID)
}
