package domain

import (
	"maps"
	"slices"

	"github.com/crossrank/crossrank/events"
)

// Submit sends a draft to review.
type Submit struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Proposal  string
}

// DecideSubmit sends a draft to review. Every change must cite evidence of
// the revision and its baseline must still be the published value.
func DecideSubmit(ed *Edition, p *Proposal, actor Actor) ([]Change, error) {
	if err := p.may(actor, actionSubmit, ed); err != nil {
		return nil, err
	}
	return one(ProposalID(p.ID), &events.ProposalSubmitted{Revision: p.Revision}), nil
}

// Revise opens the next revision of a proposal; the note says what it answers.
type Revise struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Proposal  string
	Note      string
}

// DecideRevise opens the next revision as a draft. Any editor may revise; a
// reviser never counts as an approver afterwards. Baselines move to the
// values published now, and approvals of earlier revisions become outdated.
func DecideRevise(ed *Edition, p *Proposal, actor Actor, note string) ([]Change, error) {
	if err := p.may(actor, actionRevise, ed); err != nil {
		return nil, err
	}
	if err := checkText("note", note, MaxLongText, false); err != nil {
		return nil, err
	}
	var rebase []events.Rebase
	pub := ed.Entry(p.Entry)
	for _, t := range p.StaleTargets(ed) {
		if t == targetMethodology {
			base := ed.MethodologyEdition
			rebase = append(rebase, events.Rebase{Target: t, Edition: &base})
			continue
		}
		kind, key := splitTarget(t)
		rb := events.Rebase{Target: t}
		if pub != nil && kind == "score" {
			if v, ok := pub.Scores[key]; ok {
				rb.Score = &v
			}
		} else if pub != nil {
			rb.Tags = slices.Clone(pub.Attributes[key])
		}
		rebase = append(rebase, rb)
	}
	return one(ProposalID(p.ID), &events.ProposalRevised{Revision: p.Revision + 1, Note: note, Rebase: rebase}), nil
}

// CastVote is a reviewer's verdict on a revision.
type CastVote struct {
	CommandID        string // the caller's idempotency key: the id of the command's first event
	Proposal         string
	Revision         int
	Verdict          string // events.Approve or events.Reject
	VerifiedEvidence []string
	Comment          string
}

// DecideCastVote yields VoteCast, carrying the proposal's transition when
// the vote completes the quorum (cross-validated) or, a veto, breaks the
// quorum of a cross-validated proposal (returned to review): one event on
// one aggregate, never an atomic batch (see events.Transition).
func DecideCastVote(r *Ranking, ed *Edition, p *Proposal, actor Actor, c CastVote) ([]Change, error) {
	if err := p.may(actor, actionVote, ed); err != nil {
		return nil, err
	}
	if c.Revision != p.Revision {
		return nil, ErrStaleRevision
	}
	switch c.Verdict {
	case events.Approve:
	case events.Reject:
		if err := checkText("comment", c.Comment, MaxLongText, true); err != nil {
			return nil, invalid("comment", "vote.reason_required", nil)
		}
	default:
		return nil, invalid("verdict", "vote.verdict", nil)
	}
	if err := checkText("comment", c.Comment, MaxLongText, false); err != nil {
		return nil, err
	}
	if c.Verdict == events.Approve && len(c.VerifiedEvidence) > 0 {
		if err := p.checkCitations(c.VerifiedEvidence); err != nil {
			return nil, err
		}
	}
	vote := &events.VoteCast{Revision: c.Revision, Verdict: c.Verdict,
		VerifiedEvidence: slices.Clone(c.VerifiedEvidence), Comment: c.Comment}
	if c.Verdict == events.Reject {
		vote.VerifiedEvidence = nil
	}
	if vote.VerifiedEvidence == nil {
		vote.VerifiedEvidence = []string{}
	}
	after := p.withVotes()
	after.Votes[actor.Name] = &Vote{VoteCast: *vote, Voter: actor.Name}
	vote.Transition = quorumTransition(r, ed, p, after)
	return one(ProposalID(p.ID), vote), nil
}

// withVotes returns a shallow copy of p whose Votes map may be changed freely.
func (p *Proposal) withVotes() *Proposal {
	c := *p
	c.Votes = maps.Clone(p.Votes)
	return &c
}

// quorumTransition is the change of status from before to after, the
// proposal with a vote changed: cross-validated when the quorum is now met
// on a proposal in review, returned to review when a cross-validated one
// no longer meets it.
func quorumTransition(r *Ranking, ed *Edition, before, after *Proposal) events.Transition {
	q := r.QuorumOf(after, ed)
	switch {
	case before.Status == StatusInReview && q.Met:
		return events.Transition{CrossValidated: &events.ProposalCrossValidated{Revision: after.Revision, Approvers: q.Approvers}}
	case before.Status == StatusCrossValidated && !q.Met:
		return events.Transition{ReturnedToReview: &events.ProposalReturnedToReview{Targets: q.StaleTarget, Reason: "veto"}}
	}
	return events.Transition{}
}

// DismissVeto lifts a reviewer's veto.
type DismissVeto struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Proposal  string
	Voter     string // the reviewer whose veto is lifted
	Reason    string
}

// DecideDismissVeto lets a publisher lift a reviewer's reject, with a reason
// that stays in the record. The VetoDismissed carries the cross-validation
// when lifting the veto completes the quorum.
func DecideDismissVeto(r *Ranking, ed *Edition, p *Proposal, actor Actor, c DismissVeto) ([]Change, error) {
	if err := p.may(actor, actionDismissVeto, ed); err != nil {
		return nil, err
	}
	v := p.Votes[c.Voter]
	if v == nil || !v.OpenVeto() {
		return nil, ErrNoVeto
	}
	if err := checkText("reason", c.Reason, MaxLongText, true); err != nil {
		return nil, err
	}
	after := p.withVotes()
	dismissed := *v
	dismissed.Dismissed = true
	after.Votes[c.Voter] = &dismissed
	return one(ProposalID(p.ID), &events.VetoDismissed{Voter: c.Voter, Reason: c.Reason,
		Transition: quorumTransition(r, ed, p, after)}), nil
}

// Withdraw closes a proposal by its author.
type Withdraw struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Proposal  string
	Reason    string
}

// DecideWithdraw closes a draft or in-review proposal by its author.
func DecideWithdraw(p *Proposal, actor Actor, reason string) ([]Change, error) {
	if err := p.may(actor, actionWithdraw, nil); err != nil {
		return nil, err
	}
	if err := checkText("reason", reason, MaxLongText, false); err != nil {
		return nil, err
	}
	return one(ProposalID(p.ID), &events.ProposalWithdrawn{Reason: reason}), nil
}

// Reject closes a proposal by a publisher.
type Reject struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Proposal  string
	Reason    string
}

// DecideReject closes a proposal for good; a publisher's decision with a reason.
func DecideReject(p *Proposal, actor Actor, reason string) ([]Change, error) {
	if err := p.may(actor, actionReject, nil); err != nil {
		return nil, err
	}
	if err := checkText("reason", reason, MaxLongText, true); err != nil {
		return nil, err
	}
	return one(ProposalID(p.ID), &events.ProposalRejected{Reason: reason}), nil
}
