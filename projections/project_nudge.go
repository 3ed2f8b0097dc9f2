package projections

import (
	"net/url"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// projectNudge projects a reviewer's nudge: an audit row and the
// reviewer's inbox item of kind review_overdue, whose detail is the due
// date that passed.
func (p *projector) projectNudge(ev events.Event, pr *domain.Proposal, a *auditRow) error {
	d := ev.Data.(*events.ReviewNudged)
	a.say("review_nudged", "reviewer", d.Reviewer, "due", d.Due)
	return p.notify(d.Reviewer, ev, "review_overdue", pr, d.Due)
}

// saveDue keeps the requested reviewers' due dates and overdue marks as the
// proposal's state has them after each of its events: a vote, a revision
// or a new request changes whether a nudged request is still overdue.
// Reviewers never given a due date get no row.
func (p *projector) saveDue(pr *domain.Proposal) error {
	for _, r := range pr.Requested {
		due, overdue := pr.DueOf(r), boolInt(pr.Overdue(r))
		q := `INSERT INTO review_due(proposal, reviewer, due, overdue) VALUES (?,?,?,?)
			ON CONFLICT(proposal, reviewer) DO UPDATE SET due=excluded.due, overdue=excluded.overdue
			WHERE due<>excluded.due OR overdue<>excluded.overdue`
		if due == "" {
			q = `UPDATE review_due SET due=?, overdue=? WHERE proposal=? AND reviewer=? AND due<>''`
			if err := p.exec(q, due, overdue, pr.ID, r); err != nil {
				return err
			}
			continue
		}
		if err := p.exec(q, pr.ID, r, due, overdue); err != nil {
			return err
		}
	}
	return nil
}

// projectChat writes the audit rows of a ranking's chat webhook: its URL
// shows as its scheme and host only, since an incoming-webhook URL's path
// is its secret.
func projectChat(ev events.Event, a *auditRow) error {
	switch d := ev.Data.(type) {
	case *events.ChatWebhookSet:
		a.ranking = ev.Subject
		if d.URL == "" {
			a.say("chat_webhook_removed")
			return nil
		}
		a.say("chat_webhook_set", "url", ChatHost(d.URL), "lang", d.Lang)
	case *events.ChatPosted:
		a.ranking = d.Ranking
		a.say("chat_posted", "url", d.URL, "status", d.Status)
	case *events.ChatFailed:
		a.ranking = d.Ranking
		a.say("chat_failed", "url", d.URL, "error", d.Error)
	}
	return nil
}

// ChatHost is what may be shown of a chat webhook's URL: its scheme and
// host ("" for none).
func ChatHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
