package projections

import (
	"fmt"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// projectWorkflow projects the workflow's proposal events: reviewers
// requested and comments, with the inbox rows they make.
func (p *projector) projectWorkflow(ev events.Event, pr *domain.Proposal, a *auditRow) error {
	switch d := ev.Data.(type) {
	case *events.ReviewersRequested:
		a.say("reviewers_requested", "reviewers", nonNil(d.Reviewers))
		for _, r := range d.Reviewers {
			if err := p.exec(`INSERT INTO proposal_reviewers(proposal, reviewer, requested_by, requested_at, seq) VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING`,
				pr.ID, r, ev.Actor, ts(ev.Time), ev.Sequence); err != nil {
				return err
			}
			if err := p.notify(r, ev, "review_requested", pr, ""); err != nil {
				return err
			}
		}
	case *events.CommentAdded:
		a.say("comment_added", "comment", d.CommentID)
		a.after = d.Body
		if err := p.exec(`INSERT INTO comments(proposal, comment_id, revision, on_target, reply_to, body, author, at, seq)
			VALUES (?,?,?,?,?,?,?,?,?)`, pr.ID, d.CommentID, d.Revision, d.On, d.ReplyTo, d.Body, ev.Actor, ts(ev.Time), ev.Sequence); err != nil {
			return err
		}
		to := []string{pr.Author}
		if d.ReplyTo != "" {
			for _, c := range pr.Comments {
				if c.CommentID == d.ReplyTo {
					to = append(to, c.Author)
				}
			}
		}
		for i, u := range to {
			if u == ev.Actor || i > 0 && u == to[0] {
				continue
			}
			if err := p.notify(u, ev, "comment", pr, d.CommentID); err != nil {
				return err
			}
		}
	case *events.CommentResolved:
		a.say("comment_resolved", "comment", d.CommentID)
		if err := p.exec(`UPDATE comments SET resolved_by=?, resolved_at=? WHERE proposal=? AND comment_id=?`,
			ev.Actor, ts(ev.Time), pr.ID, d.CommentID); err != nil {
			return err
		}
	}
	return nil
}

// notifyProposal adds the inbox rows a proposal's lifecycle event makes for
// its author (and, for a changed source, for whoever added the evidence).
func (p *projector) notifyProposal(ev events.Event, pr *domain.Proposal) error {
	switch d := ev.Data.(type) {
	case *events.VoteCast:
		if d.Verdict == events.Reject {
			if err := p.notify(pr.Author, ev, "veto", pr, d.Comment); err != nil {
				return err
			}
		}
		return p.notifyTransition(ev, pr, d.Transition)
	case *events.VetoDismissed:
		return p.notifyTransition(ev, pr, d.Transition)
	case *events.ProposalCrossValidated:
		return p.notifyTransition(ev, pr, events.Transition{CrossValidated: d})
	case *events.ProposalPublished:
		return p.notify(pr.Author, ev, "published", pr, fmt.Sprint(d.Edition))
	case *events.ProposalReturnedToReview:
		return p.notifyTransition(ev, pr, events.Transition{ReturnedToReview: d})
	case *events.EvidenceSourceChanged:
		return p.notifyEvidence(ev, pr, d.EvidenceID, "source_changed")
	case *events.EvidenceSourceDead:
		return p.notifyEvidence(ev, pr, d.EvidenceID, "source_dead")
	}
	return nil
}

// notifyTransition tells the author of a change of status, whether a
// separate event or one a vote carries (events.Transition). A vetoing vote
// that returns the proposal makes two rows of one sequence, "veto" and
// "returned", as the two events of older histories made two rows; the
// inbox's key and its pages allow for rows that share a sequence.
func (p *projector) notifyTransition(ev events.Event, pr *domain.Proposal, t events.Transition) error {
	switch {
	case t.CrossValidated != nil:
		return p.notify(pr.Author, ev, "cross_validated", pr, "")
	case t.ReturnedToReview != nil:
		return p.notify(pr.Author, ev, "returned", pr, t.ReturnedToReview.Reason)
	}
	return nil
}

func (p *projector) notifyEvidence(ev events.Event, pr *domain.Proposal, id, kind string) error {
	if e, ok := pr.EvidenceByID(id); ok {
		return p.notify(e.AddedBy, ev, kind, pr, id)
	}
	return nil
}

// notify adds one inbox row; nobody is told of their own doing.
func (p *projector) notify(user string, ev events.Event, kind string, pr *domain.Proposal, detail string) error {
	if user == "" || user == ev.Actor {
		return nil
	}
	return p.exec(`INSERT INTO inbox VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
		user, ev.Sequence, kind, pr.Ranking, pr.ID, ev.Actor, ts(ev.Time), detail)
}

// projectSchedule projects the edition's schedule events.
func (p *projector) projectSchedule(ev events.Event, ed *domain.Edition, a *auditRow) error {
	a.ranking = ev.Subject
	switch d := ev.Data.(type) {
	case *events.EditionScheduled:
		a.say("edition_scheduled", "proposals", len(d.Proposals), "at", d.At)
		a.after = d.SnapshotHash
		return p.exec(`INSERT INTO schedules(ranking, id, at, by_user, proposals, preview_hash, snapshot_hash, note, state,
			scheduled_at, updated_at, seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`, ev.Subject, d.Schedule, d.At, ev.Actor,
			jsonText(d.Proposals), d.PreviewHash, d.SnapshotHash, d.Note, domain.SchedulePending, ts(ev.Time), ts(ev.Time), ev.Sequence)
	case *events.EditionScheduleCanceled:
		a.say("schedule_canceled", "schedule", d.Schedule)
		return p.exec(`UPDATE schedules SET state=?, detail=?, updated_at=?, seq=? WHERE ranking=? AND id=?`,
			domain.ScheduleCanceled, d.Reason, ts(ev.Time), ev.Sequence, ev.Subject, d.Schedule)
	case *events.EditionScheduleFailed:
		a.say("schedule_failed", "schedule", d.Schedule, "code", d.Code)
		a.after = d.Code
		if err := p.exec(`UPDATE schedules SET state=?, code=?, detail=?, updated_at=?, seq=? WHERE ranking=? AND id=?`,
			domain.ScheduleFailed, d.Code, d.Detail, ts(ev.Time), ev.Sequence, ev.Subject, d.Schedule); err != nil {
			return err
		}
		if s := ed.Schedules[d.Schedule]; s != nil && s.By != "" {
			return p.exec(`INSERT INTO inbox VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
				s.By, ev.Sequence, "schedule_failed", ev.Subject, d.Schedule, ev.Actor, ts(ev.Time), d.Code)
		}
	}
	return nil
}
