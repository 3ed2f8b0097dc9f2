package domain

import (
	"errors"
	"slices"

	"github.com/crossrank/crossrank/events"
)

// action is something an actor does to an existing proposal. Each one's
// rules for the actor's roles and the proposal's state live in may, which
// the Decide functions and Allowed both call, so a page never offers what
// the command would refuse.
type action int

const (
	actionEdit        action = iota // add or remove evidence, propose or remove a change
	actionSubmit                    // send the draft to review
	actionRevise                    // open the next revision as a draft
	actionWithdraw                  // close it as its author
	actionVote                      // approve or reject, as a reviewer
	actionDismissVeto               // lift a reviewer's reject, as a publisher
	actionReject                    // close it for good, as a publisher
)

// Actions reports what an actor may do to a proposal now, as far as their
// roles and the proposal's state decide it; what a command carries (a
// reason, a revision number, which veto) is checked when it arrives. The
// zero value allows nothing.
type Actions struct {
	Edit     bool // add or remove evidence and changes
	Rebase   bool // editing is allowed, but a change's baseline was published over: propose it again before submitting
	Submit   bool
	Revise   bool
	Withdraw bool
	Vote     bool
	Dismiss  bool // a veto, as a publisher
	Reject   bool // the proposal, as a publisher
}

// Allowed reports what a may do to p now, against the published edition ed.
func (p *Proposal) Allowed(a Actor, ed *Edition) Actions {
	ok := func(x action) bool { return p.may(a, x, ed) == nil }
	submit := p.may(a, actionSubmit, ed)
	return Actions{
		Edit:     ok(actionEdit),
		Rebase:   errors.Is(submit, ErrStaleBaseline),
		Submit:   submit == nil,
		Revise:   ok(actionRevise),
		Withdraw: ok(actionWithdraw),
		Vote:     ok(actionVote),
		Dismiss:  ok(actionDismissVeto),
		Reject:   ok(actionReject),
	}
}

// OpenVetoes returns the voters whose reject still blocks p (neither
// replaced by a later vote nor dismissed), sorted.
func (p *Proposal) OpenVetoes() []string {
	var out []string
	for name, v := range p.Votes {
		if v.OpenVeto() {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// OpenVeto reports whether the vote is a reject that still blocks: a
// publisher has not dismissed it.
func (v *Vote) OpenVeto() bool { return v.Verdict == events.Reject && !v.Dismissed }

// may returns nil when a may take action x on p now, or the error the
// command refuses it with. The checks run in the order the commands have
// always made them, so the first failing rule names the error.
func (p *Proposal) may(a Actor, x action, ed *Edition) error {
	if !p.Exists() {
		return ErrProposalMissing
	}
	switch x {
	case actionEdit:
		return p.editable(a)
	case actionSubmit:
		return p.submittable(a, ed)
	case actionRevise:
		return firstErr(p.writer(a), p.open(), p.notDraft(ErrAlreadyDraft))
	case actionWithdraw:
		if err := p.writer(a); err != nil {
			return err
		}
		if a.Name != p.Author {
			return ErrNotAuthor
		}
		if p.Status != StatusDraft && p.Status != StatusInReview {
			return ErrNotWithdrawable
		}
		return nil
	case actionVote:
		return firstErr(a.require(RoleReviewer), p.open(), p.notDraft(ErrNotInReview), p.voter(a, ErrSelfApproval))
	case actionDismissVeto:
		if err := p.may(a, actionReject, ed); err != nil {
			return err
		}
		if len(p.OpenVetoes()) == 0 {
			return ErrNoVeto
		}
		return nil
	case actionReject:
		return firstErr(a.require(RolePublisher), p.open(), p.voter(a, ErrSelfPublish))
	}
	panic("domain: unknown proposal action")
}

// editable: the author or a reviser, holding the editor role, edits a draft.
func (p *Proposal) editable(a Actor) error {
	return firstErr(p.writer(a), p.editor(a), p.open(), p.draft())
}

// writer: an editor, or a vendor on a proposal about its own entry.
// A vendor never takes over an editor's proposal: it writes its own.
func (p *Proposal) writer(a Actor) error {
	if err := proposalWriter(a, p.Ranking, p.Entry, p.Kind == KindMethodology, p.NewEntry); err != nil {
		return err
	}
	if a.Vendor() && !p.CanEdit(a.Name) {
		return ErrNotAuthor
	}
	return nil
}

// submittable: an editable draft with changes, each citing evidence of the
// revision, whose baselines are still the published values.
func (p *Proposal) submittable(a Actor, ed *Edition) error {
	if err := p.editable(a); err != nil {
		return err
	}
	if len(p.Scores) == 0 && len(p.Attributes) == 0 && p.Methodology == nil {
		return ErrNothingToSubmit
	}
	for _, t := range p.Targets() {
		if err := p.checkCitations(p.citations(t)); err != nil {
			return err
		}
	}
	if len(p.StaleTargets(ed)) > 0 {
		return ErrStaleBaseline
	}
	return nil
}

// The single rules may combines; each returns nil when it holds. They are
// evaluated eagerly by firstErr, so each must be cheap and side-effect free.

func (p *Proposal) editor(a Actor) error {
	if !p.CanEdit(a.Name) {
		return ErrNotAuthor
	}
	return nil
}

func (p *Proposal) voter(a Actor, refused error) error {
	if !p.CanVote(a.Name) {
		return refused
	}
	return nil
}

func (p *Proposal) open() error {
	if !p.Status.Open() {
		return ErrClosed
	}
	return nil
}

func (p *Proposal) draft() error {
	if p.Status != StatusDraft {
		return ErrNotDraft
	}
	return nil
}

func (p *Proposal) notDraft(refused error) error {
	if p.Status == StatusDraft {
		return refused
	}
	return nil
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
