package domain

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/crossrank/crossrank/events"
)

// A publisher schedules an edition for a moment: the chosen proposals at
// the preview they approved. At the moment, a worker fires it: the edition
// is published as the scheduling publisher if the fresh preview still
// gives the same snapshot from the same revisions; otherwise nothing is
// published and the schedule records why. The timing itself lives in the
// event store (a JetStream message schedule), not in this package.

// Schedule states.
const (
	SchedulePending   = "pending"
	ScheduleCanceled  = "canceled"
	ScheduleFailed    = "failed"
	SchedulePublished = "published"
)

// Schedule is a scheduled edition.
type Schedule struct {
	events.EditionScheduled
	By      string    // the publisher who scheduled it
	AtTime  time.Time // At, parsed
	State   string
	Code    string // why it failed or was canceled
	Detail  string
	Edition int // the edition it published
}

func (ed *Edition) evolveSchedule(e events.Event) {
	switch d := e.Data.(type) {
	case *events.EditionScheduled:
		at, _ := time.Parse(time.RFC3339, d.At)
		ed.Schedules = maps.Clone(ed.Schedules)
		if ed.Schedules == nil {
			ed.Schedules = map[string]*Schedule{}
		}
		ed.Schedules[d.Schedule] = &Schedule{EditionScheduled: *d, By: e.Actor, AtTime: at, State: SchedulePending}
	case *events.EditionScheduleCanceled:
		ed.updateSchedule(d.Schedule, func(s *Schedule) { s.State, s.Detail = ScheduleCanceled, d.Reason })
	case *events.EditionScheduleFailed:
		ed.updateSchedule(d.Schedule, func(s *Schedule) { s.State, s.Code, s.Detail = ScheduleFailed, d.Code, d.Detail })
	}
}

// updateSchedule changes a schedule on a copy of it in a copy of the map:
// the handler's cache hands earlier states of the edition to readers on
// other goroutines (Edition, FireSchedule), which share the map and its
// schedules with this state until it changes them.
func (ed *Edition) updateSchedule(id string, change func(*Schedule)) {
	old := ed.Schedules[id]
	if old == nil {
		return
	}
	s := *old
	change(&s)
	ed.Schedules = maps.Clone(ed.Schedules)
	ed.Schedules[id] = &s
}

// Pending returns the pending scheduled editions, soonest first.
func (ed *Edition) Pending() []*Schedule {
	var out []*Schedule
	for _, s := range ed.Schedules {
		if s.State == SchedulePending {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b *Schedule) int {
		if c := a.AtTime.Compare(b.AtTime); c != 0 {
			return c
		}
		return compareStr(a.Schedule, b.Schedule)
	})
	return out
}

// ScheduleEdition schedules the chosen proposals' edition for a moment.
type ScheduleEdition struct {
	CommandID   string // the caller's idempotency key: the id of the command's first event
	Ranking     string
	Schedule    string // the schedule's id, chosen by the caller (a UUIDv7)
	Proposals   []string
	PreviewHash string
	At          time.Time // keeps the caller's offset
	Note        string
}

// MaxScheduleAhead is how far ahead an edition may be scheduled.
const MaxScheduleAhead = 366 * 24 * time.Hour

// DecideScheduleEdition checks the schedule like a publish now — role,
// preview, no self-publishing — and that the moment is in the future and
// within a year.
func DecideScheduleEdition(r *Ranking, ed *Edition, chosen []*Proposal, entries map[string]*Entry, actor Actor, now time.Time, c ScheduleEdition) ([]Change, error) {
	if err := actor.require(RolePublisher); err != nil {
		return nil, err
	}
	if !events.ValidID(c.Schedule) {
		return nil, invalid("id", "field.bad_id", nil)
	}
	if _, ok := ed.Schedules[c.Schedule]; ok {
		return nil, ErrScheduleExists
	}
	switch {
	case !c.At.After(now):
		return nil, invalid("at", "schedule.past", nil)
	case c.At.After(now.Add(MaxScheduleAhead)):
		return nil, invalid("at", "schedule.too_far", nil)
	}
	if err := checkText("note", c.Note, MaxLongText, false); err != nil {
		return nil, err
	}
	for _, p := range chosen {
		if p.Exists() && !p.CanVote(actor.Name) {
			return nil, fmt.Errorf("%w: %s", ErrSelfPublish, p.ID)
		}
	}
	pv, err := Preview(r, ed, chosen, entries)
	if err == nil {
		err = JudgeQuorum(r, ed, chosen)
	}
	if err != nil {
		return nil, err
	}
	if c.PreviewHash != pv.Hash {
		return nil, ErrPreviewChanged
	}
	d := &events.EditionScheduled{Schedule: c.Schedule, At: c.At.Format(time.RFC3339), PreviewHash: pv.Hash,
		SnapshotHash: pv.SnapshotHash, Note: c.Note}
	for _, p := range chosen {
		d.Proposals = append(d.Proposals, events.ScheduledPick{Proposal: p.ID, Revision: p.Revision})
	}
	slices.SortFunc(d.Proposals, func(a, b events.ScheduledPick) int { return compareStr(a.Proposal, b.Proposal) })
	return one(EditionID(pv.Ranking), d), nil
}

// CancelSchedule withdraws a pending scheduled edition.
type CancelSchedule struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Ranking   string
	Schedule  string
	Reason    string
}

// DecideCancelSchedule lets a publisher cancel a pending schedule. chosen
// are the schedule's proposals as they are now: cancelling follows the rule
// of publishing, so the author or a reviser of one of them may not cancel
// (withholding an edition is as much a publishing decision as releasing it).
func DecideCancelSchedule(ed *Edition, chosen []*Proposal, actor Actor, c CancelSchedule) ([]Change, error) {
	if err := actor.require(RolePublisher); err != nil {
		return nil, err
	}
	s := ed.Schedules[c.Schedule]
	if s == nil {
		return nil, ErrScheduleMissing
	}
	if s.State != SchedulePending {
		return nil, ErrScheduleDone
	}
	for _, p := range chosen {
		if p.Exists() && !p.CanVote(actor.Name) {
			return nil, fmt.Errorf("%w: %s", ErrSelfPublish, p.ID)
		}
	}
	if err := checkText("reason", c.Reason, MaxLongText, false); err != nil {
		return nil, err
	}
	return one(EditionID(c.Ranking), &events.EditionScheduleCanceled{Schedule: c.Schedule, Reason: c.Reason}), nil
}

// FireSchedule publishes a scheduled edition at its moment.
type FireSchedule struct {
	CommandID string // the caller's idempotency key; the worker derives it from the schedule
	Ranking   string
	Schedule  string
	AuditHead string // as in PublishEdition
	AuditSeq  uint64
	// Candidates are the ranking's other cross-validated proposals, as in
	// PublishEdition.
	Candidates []string
}

// DecideFireSchedule publishes the schedule's edition, or records why it
// cannot: it is not pending (nothing to do), a chosen proposal moved to
// another revision or out of cross-validation, or the fresh preview gives
// another snapshot. actor is the scheduling publisher as they are now.
func DecideFireSchedule(r *Ranking, ed *Edition, chosen []*Proposal, entries map[string]*Entry, others []*Proposal, actor Actor, c FireSchedule) ([]Change, error) {
	s := ed.Schedules[c.Schedule]
	if s == nil {
		return nil, ErrScheduleMissing
	}
	if s.State != SchedulePending {
		return nil, nil // fired, failed or canceled already
	}
	fail := func(code, detail string) ([]Change, error) {
		return one(EditionID(c.Ranking), &events.EditionScheduleFailed{Schedule: c.Schedule, Code: code, Detail: detail}), nil
	}
	if err := actor.require(RolePublisher); err != nil {
		return fail(codeOf(err), s.By)
	}
	for i, pick := range s.Proposals {
		if p := chosen[i]; !p.Exists() || p.Revision != pick.Revision {
			return fail(ErrScheduleRevised.code, pick.Proposal)
		}
	}
	pv, err := Preview(r, ed, chosen, entries)
	if err != nil {
		return fail(codeOf(err), err.Error())
	}
	if pv.SnapshotHash != s.SnapshotHash {
		return fail(ErrPreviewChanged.code, pv.SnapshotHash)
	}
	out, err := DecidePublish(r, ed, chosen, entries, others, actor, PublishEdition{Ranking: c.Ranking,
		Proposals: pv.Proposals, PreviewHash: pv.Hash, AuditHead: c.AuditHead, AuditSeq: c.AuditSeq, Note: s.Note})
	if err != nil {
		return fail(codeOf(err), err.Error())
	}
	for _, ch := range out {
		if d, ok := ch.Data.(*events.EditionPublished); ok {
			d.Schedule = c.Schedule
		}
	}
	return out, nil
}

// codeOf returns the error code of a domain error ("internal" otherwise).
func codeOf(err error) string {
	var fe *FieldError
	if errors.As(err, &fe) {
		return fe.Code
	}
	var e *Error
	if errors.As(err, &e) {
		return e.code
	}
	return "internal"
}

// ChosenIDs checks a list of chosen proposal ids (some, valid, none twice)
// and returns them sorted.
func ChosenIDs(proposals []string) ([]string, error) {
	if len(proposals) == 0 {
		return nil, ErrNothingToPublish
	}
	ids := slices.Compact(slices.Sorted(slices.Values(proposals)))
	if len(ids) != len(proposals) {
		return nil, invalid("proposals", "edition.repeated_proposal", nil)
	}
	for _, p := range ids {
		if !events.ValidID(p) {
			return nil, ErrProposalMissing
		}
	}
	return ids, nil
}
