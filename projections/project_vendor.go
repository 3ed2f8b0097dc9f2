package projections

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// ContactRow is one row of an entry's public contact timeline. Other
// parts of the projector add rows of their own kinds with contact (the
// extension point: a kind, its row here, its words "contact.kind.<kind>"
// in web/i18n).
type ContactRow struct {
	Ranking, Entry string
	Kind           string
	Vendor         string // the vendor account concerned; shown by its display name
	Subject        string // a statement or proposal id
	Detail         string // a criterion, an edition number
	Text           string // a public reason
}

// contact adds one row to an entry's contact timeline, at ev's sequence.
func (p *projector) contact(ev events.Event, r ContactRow) error {
	return p.exec(`INSERT INTO contact_timeline VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
		r.Ranking, r.Entry, ev.Sequence, r.Kind, ts(ev.Time), r.Vendor, r.Subject, r.Detail, r.Text)
}

// projectVendorScope records a vendor account's entries, and "vendor
// invited" on each entry's timeline.
func (p *projector) projectVendorScope(ev events.Event, d *events.VendorEntriesSet, u *domain.User, a *auditRow) error {
	a.say("vendor_entries_set", "user", u.Username, "entries", nonNil(d.Entries))
	if err := p.exec(`DELETE FROM vendor_entries WHERE username=?`, u.Username); err != nil {
		return err
	}
	for _, e := range d.Entries {
		ranking, entry, _ := strings.Cut(e, "/")
		if err := p.exec(`INSERT INTO vendor_entries VALUES (?,?,?) ON CONFLICT DO NOTHING`, u.Username, ranking, entry); err != nil {
			return err
		}
		if err := p.contact(ev, ContactRow{Ranking: ranking, Entry: entry, Kind: "vendor_invited", Vendor: u.Username}); err != nil {
			return err
		}
	}
	return nil
}

// projectReply keeps a statement's row and its timeline rows.
func (p *projector) projectReply(ev events.Event, r *domain.Reply, a *auditRow) error {
	a.ranking, a.entry = r.Ranking, r.Entry
	switch d := ev.Data.(type) {
	case *events.ReplyWritten:
		a.say("reply_written", "criterion", d.Criterion)
		a.after = strings.TrimSpace(d.TextEn + "\n" + d.TextZh)
		if err := p.exec(`INSERT INTO replies VALUES (?,?,?,?,?,?,?,?,?,'','',0) ON CONFLICT(id) DO UPDATE
			SET text_en=excluded.text_en, text_zh=excluded.text_zh, written_at=excluded.written_at,
			written_seq=excluded.written_seq, reason='', hidden_at='', hidden_seq=0`,
			r.ID, r.Vendor, d.Ranking, d.Entry, d.Criterion, d.TextEn, d.TextZh, ts(ev.Time), ev.Sequence); err != nil {
			return err
		}
		return p.contact(ev, ContactRow{Ranking: d.Ranking, Entry: d.Entry, Kind: "reply_written", Vendor: r.Vendor,
			Subject: r.ID, Detail: d.Criterion})
	case *events.ReplyHidden:
		a.say("reply_hidden", "reason", d.Reason)
		a.after = d.Reason
		if err := p.exec(`UPDATE replies SET reason=?, hidden_at=?, hidden_seq=? WHERE id=?`, d.Reason, ts(ev.Time), ev.Sequence, r.ID); err != nil {
			return err
		}
		return p.contact(ev, ContactRow{Ranking: r.Ranking, Entry: r.Entry, Kind: "reply_hidden", Vendor: r.Vendor,
			Subject: r.ID, Detail: r.Criterion, Text: d.Reason})
	}
	return fmt.Errorf("%w: no projection for %s", events.ErrUnknownType, ev.Type)
}

// vendorProposal follows a proposal a vendor opened: its submission and
// its outcome join the entry's timeline.
func (p *projector) vendorProposal(ev events.Event, pr *domain.Proposal) error {
	if _, ok := ev.Data.(*events.ProposalOpened); ok {
		if pr.Entry == "" || pr.NewEntry {
			return nil
		}
		_, err := p.w.queryRow(`SELECT 1 FROM vendor_entries WHERE username=? AND ranking=? AND entry=?`, ev.Actor, pr.Ranking, pr.Entry)
		if errors.Is(err, errNoRow) {
			return nil // not a vendor's
		}
		if err != nil {
			return err
		}
		return p.exec(`INSERT INTO vendor_proposals VALUES (?,?,?,?) ON CONFLICT DO NOTHING`, pr.ID, ev.Actor, pr.Ranking, pr.Entry)
	}
	kind, detail := "", ""
	switch d := ev.Data.(type) {
	case *events.ProposalSubmitted:
		kind, detail = "evidence_submitted", strconv.Itoa(d.Revision)
	case *events.ProposalPublished:
		kind, detail = "proposal_published", strconv.Itoa(d.Edition)
	case *events.ProposalRejected:
		kind = "proposal_rejected"
	case *events.ProposalWithdrawn:
		kind = "proposal_withdrawn"
	default:
		return nil
	}
	row, err := p.w.queryRow(`SELECT vendor FROM vendor_proposals WHERE proposal=?`, pr.ID)
	if errors.Is(err, errNoRow) {
		return nil // not a vendor's
	}
	if err != nil {
		return err
	}
	// A rejection's or withdrawal's reason stays on the desk: the
	// timeline tells the outcome, not the review's words.
	return p.contact(ev, ContactRow{Ranking: pr.Ranking, Entry: pr.Entry, Kind: kind, Vendor: colText(row[0]),
		Subject: pr.ID, Detail: detail})
}

// notifyVendorsOfEdition tells each vendor whose entry an edition changed.
func (p *projector) notifyVendorsOfEdition(ev events.Event, ranking string, number int) error {
	// The row's detail is the entry; the edition is the event's.
	return p.exec(`INSERT INTO inbox SELECT v.username, ?, 'vendor_edition', v.ranking, '', ?, ?, v.entry
		FROM vendor_entries v WHERE v.ranking=? AND v.entry IN
		(SELECT DISTINCT entry FROM edition_changes WHERE ranking=? AND number=?) ON CONFLICT DO NOTHING`,
		ev.Sequence, ev.Actor, ts(ev.Time), ranking, ranking, number)
}

// notifyVendorsOfReport tells each vendor of the entry that a report about
// it was accepted, with the draft proposal it opened.
func (p *projector) notifyVendorsOfReport(ev events.Event, r *domain.Report, proposal string) error {
	return p.exec(`INSERT INTO inbox SELECT username, ?, 'vendor_report', ranking, ?, ?, ?, ?
		FROM vendor_entries WHERE ranking=? AND entry=? ON CONFLICT DO NOTHING`,
		ev.Sequence, proposal, ev.Actor, ts(ev.Time), r.ID, r.Opened.Ranking, r.Opened.Entry)
}
