package domain

import (
	"slices"
	"time"

	"github.com/crossrank/crossrank/events"
)

// Due dates of review requests, and the nudge a reviewer gets when one
// passes unanswered. The timer is the scheduler's; the domain says whether
// a nudge is still due when it fires, so a replaced due date or an answer
// given in time means no nudge, and a reviewer is nudged once per due date.

// MaxDueAhead is how far ahead a review may be due.
const MaxDueAhead = 366 * 24 * time.Hour

// checkDue checks a request's due date against now: none, or in the
// future within MaxDueAhead.
func checkDue(due, now time.Time) error {
	switch {
	case due.IsZero():
		return nil
	case !due.After(now):
		return invalid("due", "due.past", nil)
	case due.After(now.Add(MaxDueAhead)):
		return invalid("due", "due.too_far", nil)
	}
	return nil
}

// ParseDue reads a review's due date as callers give it: "" (none), an
// RFC 3339 time, or a date (YYYY-MM-DD), which is due at the end of that
// day in UTC.
func ParseDue(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if d, err := time.Parse(time.DateOnly, s); err == nil {
		return d.AddDate(0, 0, 1), nil
	}
	return time.Time{}, invalid("due", "due.format", nil)
}

// dueText is how a due date is stored: RFC 3339 in UTC, to the second;
// "" for none.
func dueText(due time.Time) string {
	if due.IsZero() {
		return ""
	}
	return due.UTC().Truncate(time.Second).Format(time.RFC3339)
}

// DueOf returns when reviewer's request is due ("" none).
func (p *Proposal) DueOf(reviewer string) string { return p.Due[reviewer] }

// Awaits reports whether the proposal, in review, still awaits reviewer's
// vote on its current revision: a request they have not answered.
func (p *Proposal) Awaits(reviewer string) bool {
	if p.Status != StatusInReview || !slices.Contains(p.Requested, reviewer) || !p.CanVote(reviewer) {
		return false
	}
	v := p.Votes[reviewer]
	return v == nil || v.Revision != p.Revision
}

// Overdue reports whether reviewer was nudged for their request's current
// due date and has not answered since.
func (p *Proposal) Overdue(reviewer string) bool {
	due := p.Due[reviewer]
	return due != "" && p.Nudged[reviewer] == due && p.Awaits(reviewer)
}

func (p *Proposal) evolveDue(e events.Event) {
	switch d := e.Data.(type) {
	case *events.ReviewersRequested:
		for _, r := range d.Reviewers {
			if d.Due == "" {
				delete(p.Due, r)
				continue
			}
			if p.Due == nil {
				p.Due = map[string]string{}
			}
			p.Due[r] = d.Due
		}
	case *events.ReviewNudged:
		if p.Nudged == nil {
			p.Nudged = map[string]string{}
		}
		p.Nudged[d.Reviewer] = d.Due
	}
}

// NudgeReviewer is the firing of a review request's due date: Due is the
// due date the timer was set for, as stored in the request.
type NudgeReviewer struct {
	CommandID string
	Proposal  string
	Reviewer  string
	Due       string
}

// DecideNudgeReviewer nudges the reviewer when the request is still due
// at Due, has not been nudged for it, and still awaits their vote;
// otherwise it decides nothing (no error): the due date was replaced or
// cleared, the reviewer answered, or the proposal left review.
func DecideNudgeReviewer(p *Proposal, c NudgeReviewer) ([]Change, error) {
	if !p.Exists() {
		return nil, ErrProposalMissing
	}
	if c.Due == "" || p.Due[c.Reviewer] != c.Due || p.Nudged[c.Reviewer] == c.Due || !p.Awaits(c.Reviewer) {
		return nil, nil
	}
	return one(ProposalID(p.ID), &events.ReviewNudged{Reviewer: c.Reviewer, Due: c.Due}), nil
}
