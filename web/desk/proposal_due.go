package desk

import (
	"context"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// Due dates on the proposal page: the request form takes a wall-clock due
// date (datetime-local) in a chosen zone, as the schedule form takes its
// moment, and the requested reviewers show theirs, or that it passed.

// reviewersAction is the API's request action with the form's reading of
// the due date: due_local in zone becomes the RFC 3339 "due"; an empty
// due_local asks for no due date.
var reviewersAction = func() command.Action[command.ReviewersInput] {
	act := command.RequestReviewers
	form := act.Form
	act.Form = func(f *httpx.Form, in *command.ReviewersInput) {
		form(f, in)
		local := f.Str("due_local")
		if local == "" {
			return
		}
		loc, ok := zoneOf(f.Str("zone"))
		if !ok {
			f.FieldErr("zone", "schedule.zone")
			return
		}
		for _, layout := range localTimeLayouts {
			if t, err := time.ParseInLocation(layout, local, loc); err == nil {
				in.Due = t.Format(time.RFC3339)
				return
			}
		}
		f.FieldErr("due", "due.format")
	}
	return act
}()

// requestedLabels names the requested reviewers in the order asked, each
// with their due date, or with when it passed while they are overdue.
func requestedLabels(p ui.Page, dp *domain.Proposal) []string {
	out := make([]string, 0, len(dp.Requested))
	for _, r := range dp.Requested {
		due, err := time.Parse(time.RFC3339, dp.DueOf(r))
		switch {
		case err != nil:
			out = append(out, r)
		case dp.Overdue(r):
			out = append(out, p.T("desk.reviewers.overdue", r, p.DateTime(due)))
		default:
			out = append(out, p.T("desk.reviewers.due_of", r, p.DateTime(due)))
		}
	}
	return out
}

// markOverdue marks the author's proposals on which a requested reviewer
// was nudged at their due date and has not answered since; items are the
// queue items of the proposals ps, in the same order.
func (d *Desk) markOverdue(ctx context.Context, p ui.Page, ps []projections.ProposalSummary, items []queueItem) error {
	ids := make([]string, len(ps))
	for i, s := range ps {
		ids[i] = s.ID
	}
	over, err := d.read.OverdueReviews(ctx, ids)
	if err != nil {
		return err
	}
	for i, s := range ps {
		var names []string
		for _, o := range over[s.ID] {
			if due, err := time.Parse(time.RFC3339, o.Due); err == nil {
				names = append(names, p.T("desk.reviewers.overdue", o.Reviewer, p.DateTime(due)))
			}
		}
		if len(names) > 0 && i < len(items) {
			items[i].Overdue = p.T("desk.queue.overdue", joinNames(p.Lang, names))
		}
	}
	return nil
}
