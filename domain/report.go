package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/events"
)

// A report is a reader's note that something on a public entry is wrong,
// outdated or missing. Readers have no account: a report never changes a
// rank itself. An editor accepts it (opening a draft proposal that goes
// through review and the quorum like any other), declines it with a public
// reason, or marks it a duplicate of another report.

// The kinds of report a reader may send.
var ReportKinds = []string{"wrong", "outdated", "missing", "other"}

// The statuses of a report.
const (
	ReportOpen      = "open"
	ReportAccepted  = "accepted"
	ReportDeclined  = "declined"
	ReportDuplicate = "duplicate"
)

// ReportStatuses lists every status, in display order.
var ReportStatuses = []string{ReportOpen, ReportAccepted, ReportDeclined, ReportDuplicate}

// Report limits.
const (
	MaxReportText = 4000 // runes
	MaxReasonText = MaxShortText
	// ReportFoldWindow is how long the same report sent again folds into
	// the first instead of opening another.
	ReportFoldWindow = 10 * time.Minute
)

var (
	ErrReportMissing = kindErr(ErrNotFound, "report.missing")
	ErrReportClosed  = kindErr(ErrState, "report.closed")
	// ErrNotPublic: the ranking or the entry is not on the public site; the
	// intake answers as for a missing entry (404).
	ErrNotPublic = kindErr(ErrNotFound, "report.not_public")
)

// Report is a report's state.
type Report struct {
	ID       string
	Opened   events.ReportOpened
	At       time.Time
	Folded   int // times the same report was sent again within the window
	LastSent time.Time
	Status   string
	Reason   string // declined: the public reason
	Proposal string // accepted: the draft proposal opened for it
	Of       string // duplicate: the report it duplicates
	Seq      uint64
}

// Exists reports whether the report has been opened.
func (r *Report) Exists() bool { return r != nil && r.ID != "" }

// Evolve applies one of the report's events.
func (r *Report) Evolve(e events.Event) {
	switch d := e.Data.(type) {
	case *events.ReportOpened:
		r.ID, r.Opened, r.At, r.LastSent, r.Status = e.Subject, *d, e.Time, e.Time, ReportOpen
	case *events.ReportFolded:
		r.Folded++
		r.LastSent = e.Time
	case *events.ReportAccepted:
		r.Status, r.Proposal = ReportAccepted, d.Proposal
	case *events.ReportDeclined:
		r.Status, r.Reason = ReportDeclined, d.Reason
	case *events.ReportMarkedDuplicate:
		r.Status, r.Of = ReportDuplicate, d.Of
	}
	r.Seq = e.Sequence
}

func (r *Report) clone() *Report {
	c := *r
	return &c
}

// ReportAggregate returns the aggregate of a report.
func ReportAggregate(id string) events.Aggregate {
	return events.Aggregate{Kind: events.KindReport, ID: id}
}

// OpenReport is a reader's report, as the intake received it.
type OpenReport struct {
	Ranking   string
	Entry     string
	Criterion string
	Evidence  string
	Kind      string
	Text      string
}

// ReportID returns the id of a report sent at now: the hash of what it says
// and of the folding window it falls in, so the same report sent again in
// the window names the same aggregate, and folds into it (a window's edge
// may part two sendings a moment apart: they stay two reports, which the
// desk can mark duplicates).
func ReportID(c OpenReport, now time.Time) string {
	h := sha256.New()
	for _, s := range []string{c.Ranking, c.Entry, c.Criterion, c.Evidence, c.Kind, c.Text,
		strconv.FormatInt(now.UTC().Truncate(ReportFoldWindow).Unix(), 10)} {
		h.Write([]byte(strconv.Itoa(len(s)) + ":" + s))
	}
	return "rp-" + hex.EncodeToString(h.Sum(nil))[:32]
}

// CheckReport checks a report's fields before anything is loaded.
func CheckReport(c OpenReport) error {
	if !events.ValidID(c.Ranking) {
		return ErrNotPublic
	}
	if CheckSlug("entry", c.Entry) != nil {
		return ErrNotPublic
	}
	if !slices.Contains(ReportKinds, c.Kind) {
		return invalid("kind", "report.bad_kind", nil)
	}
	if c.Criterion != "" && CheckSlug("criterion", c.Criterion) != nil {
		return invalid("criterion", "report.unknown_criterion", nil)
	}
	if err := checkText("evidence", c.Evidence, 200, false); err != nil {
		return err
	}
	return checkText("text", c.Text, MaxReportText, true)
}

// DecideOpenReport opens a report on a public entry of a public ranking, or
// folds it into rep, the same report sent earlier in the window.
func DecideOpenReport(r *Ranking, ed *Edition, rep *Report, id string, c OpenReport) ([]Change, error) {
	if err := CheckReport(c); err != nil {
		return nil, err
	}
	if !r.Exists() || ed == nil || ed.Number < 1 || ed.Entries[c.Entry] == nil {
		return nil, ErrNotPublic
	}
	if c.Criterion != "" && !r.HasCriterion(c.Criterion) {
		return nil, invalid("criterion", "report.unknown_criterion", nil)
	}
	if rep.Exists() {
		return one(ReportAggregate(id), &events.ReportFolded{}), nil
	}
	return one(ReportAggregate(id), &events.ReportOpened{Ranking: c.Ranking, Entry: c.Entry,
		Criterion: c.Criterion, Evidence: c.Evidence, Kind: c.Kind, Text: c.Text}), nil
}

// AcceptReport opens a draft proposal for an open report.
type AcceptReport struct {
	CommandID string
	Report    string
	Proposal  string // the new proposal's id, chosen by the caller
}

// ReportProposal returns the draft proposal an accepted report opens: on
// the report's entry, titled after the report, its text as the summary.
func ReportProposal(rep *Report, c AcceptReport) OpenProposal {
	title := "Report " + rep.ID + ": " + rep.Opened.Kind
	if rep.Opened.Criterion != "" {
		title += " (" + rep.Opened.Criterion + ")"
	}
	return OpenProposal{CommandID: c.CommandID, ID: c.Proposal, Ranking: rep.Opened.Ranking,
		Entry: rep.Opened.Entry, Title: title, Summary: rep.Opened.Text}
}

// DecideAcceptReport lets an editor accept an open report: one atomic
// batch opens the draft proposal and records it on the report.
func DecideAcceptReport(rep *Report, r *Ranking, entry *Entry, ed *Edition, p *Proposal, a Actor, c AcceptReport) ([]Change, error) {
	if err := a.require(RoleEditor); err != nil {
		return nil, err
	}
	if !rep.Exists() {
		return nil, ErrReportMissing
	}
	if rep.Status != ReportOpen {
		return nil, ErrReportClosed
	}
	open, err := DecideOpenProposal(r, entry, ed, p, a, ReportProposal(rep, c))
	if err != nil {
		return nil, err
	}
	return append(open, Change{ReportAggregate(rep.ID), &events.ReportAccepted{Proposal: c.Proposal}}), nil
}

// DeclineReport closes an open report with a public reason.
type DeclineReport struct {
	CommandID string
	Report    string
	Reason    string
}

// DecideDeclineReport lets an editor decline an open report.
func DecideDeclineReport(rep *Report, a Actor, c DeclineReport) ([]Change, error) {
	if err := a.require(RoleEditor); err != nil {
		return nil, err
	}
	if !rep.Exists() {
		return nil, ErrReportMissing
	}
	if rep.Status != ReportOpen {
		return nil, ErrReportClosed
	}
	if err := checkText("reason", c.Reason, MaxReasonText, true); err != nil {
		return nil, err
	}
	return one(ReportAggregate(rep.ID), &events.ReportDeclined{Reason: c.Reason}), nil
}

// MarkDuplicate folds an open report into another of the same ranking.
type MarkDuplicate struct {
	CommandID string
	Report    string
	Of        string
}

// DecideMarkDuplicate lets an editor mark an open report a duplicate of
// another report of the same ranking (not itself).
func DecideMarkDuplicate(rep, of *Report, a Actor, c MarkDuplicate) ([]Change, error) {
	if err := a.require(RoleEditor); err != nil {
		return nil, err
	}
	if !rep.Exists() {
		return nil, ErrReportMissing
	}
	if rep.Status != ReportOpen {
		return nil, ErrReportClosed
	}
	if !of.Exists() || of.ID == rep.ID || of.Opened.Ranking != rep.Opened.Ranking {
		return nil, invalid("of", "report.bad_duplicate", nil)
	}
	return one(ReportAggregate(rep.ID), &events.ReportMarkedDuplicate{Of: of.ID}), nil
}
