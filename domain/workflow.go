package domain

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/crossrank/crossrank/events"
)

// The editorial workflow around review: reviewers requested on a proposal
// and the attention set that follows from it ("whose turn"), comments, and
// reviewers' declared conflicts of interest.

// Comment is one comment on a proposal.
type Comment struct {
	events.CommentAdded
	Author     string
	At         time.Time
	Resolved   bool
	ResolvedBy string
}

func (p *Proposal) evolveWorkflow(e events.Event) {
	switch d := e.Data.(type) {
	case *events.ReviewersRequested:
		for _, r := range d.Reviewers {
			if !slices.Contains(p.Requested, r) {
				p.Requested = append(p.Requested, r)
			}
		}
	case *events.CommentAdded:
		p.Comments = append(p.Comments, Comment{CommentAdded: *d, Author: e.Actor, At: e.Time})
	case *events.CommentResolved:
		if i := p.comment(d.CommentID); i >= 0 {
			p.Comments[i].Resolved, p.Comments[i].ResolvedBy = true, e.Actor
		}
	}
}

func (p *Proposal) comment(id string) int {
	return slices.IndexFunc(p.Comments, func(c Comment) bool { return c.CommentID == id })
}

// openReviewerComments returns the ids of unresolved comments by anyone
// but the proposal's author and revisers.
func (p *Proposal) openReviewerComments() []string {
	var out []string
	for _, c := range p.Comments {
		if !c.Resolved && p.CanVote(c.Author) {
			out = append(out, c.CommentID)
		}
	}
	return out
}

// AttentionSet returns whose turn it is on the proposal, sorted: the
// requested reviewers who have not voted on the current revision while it
// is in review, and the author while a veto is open on it or a reviewer's
// comment is unresolved. A closed proposal needs nobody.
func (p *Proposal) AttentionSet() []string {
	if !p.Status.Open() {
		return nil
	}
	var out []string
	if p.Status == StatusInReview {
		for _, r := range p.Requested {
			if v := p.Votes[r]; (v == nil || v.Revision != p.Revision) && p.CanVote(r) {
				out = append(out, r)
			}
		}
	}
	if len(p.OpenVetoes()) > 0 || len(p.openReviewerComments()) > 0 {
		out = append(out, p.Author)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// RequestReviewers asks reviewers to review a proposal.
type RequestReviewers struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Proposal  string
	Reviewers []string
	// Due is when the reviewers are nudged if they have not answered;
	// zero: never. Naming a requested reviewer again with another due date
	// (or none) replaces theirs.
	Due time.Time
}

// MaxRequested bounds the reviewers one request names.
const MaxRequested = 20

// CheckReviewersRequested checks the ids a RequestReviewers names, before
// anything is loaded: the proposal's and at most MaxRequested reviewers'.
func CheckReviewersRequested(c RequestReviewers) error {
	if !events.ValidID(c.Proposal) {
		return ErrProposalMissing
	}
	if len(c.Reviewers) > MaxRequested {
		return invalid("reviewers", "reviewers.count", Args{"limit": MaxRequested})
	}
	for i, r := range c.Reviewers {
		if !events.ValidID(r) {
			return invalid(fmt.Sprintf("reviewers[%d]", i), "reviewers.unknown", Args{"user": r})
		}
	}
	return nil
}

// DecideRequestReviewers lets an editor ask reviewers who hold the role,
// and may vote on it, to review an open proposal, by a due date in the
// future or none. users holds the named users' states. A reviewer already
// requested is asked again only with another due date.
func DecideRequestReviewers(p *Proposal, users map[string]*User, actor Actor, now time.Time, c RequestReviewers) ([]Change, error) {
	if err := firstErr(actor.require(RoleEditor), p.existsErr(), p.open(), checkDue(c.Due, now)); err != nil {
		return nil, err
	}
	due := dueText(c.Due)
	if len(c.Reviewers) == 0 || len(c.Reviewers) > MaxRequested {
		return nil, invalid("reviewers", "reviewers.count", Args{"limit": MaxRequested})
	}
	var fresh []string
	for i, name := range c.Reviewers {
		field := fmt.Sprintf("reviewers[%d]", i)
		u := users[name]
		switch {
		case !u.Exists():
			return nil, invalid(field, "reviewers.unknown", Args{"user": name})
		case !slices.Contains(u.Roles, RoleReviewer):
			return nil, invalid(field, "reviewers.not_reviewer", Args{"user": name})
		case !p.CanVote(name):
			return nil, invalid(field, "reviewers.own_proposal", Args{"user": name})
		}
		again := slices.Contains(p.Requested, name) && p.Due[name] == due
		if !again && !slices.Contains(fresh, name) {
			fresh = append(fresh, name)
		}
	}
	if len(fresh) == 0 {
		return nil, invalid("reviewers", "reviewers.already", nil)
	}
	return one(ProposalID(p.ID), &events.ReviewersRequested{Reviewers: fresh, Due: due}), nil
}

func (p *Proposal) existsErr() error {
	if !p.Exists() {
		return ErrProposalMissing
	}
	return nil
}

// AddComment comments on a proposal, one of its changes or evidence items.
type AddComment struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Proposal  string
	On        string // "", "score:<criterion>", "attr:<key>", "methodology" or "evidence:<id>"
	ReplyTo   string
	Body      string
}

// MaxComments bounds the comments on one proposal.
const MaxComments = 1000

// DecideAddComment lets anyone who works on proposals (editor, reviewer or
// publisher) comment on an existing proposal.
func DecideAddComment(p *Proposal, actor Actor, c AddComment) ([]Change, error) {
	if !actor.Has(RoleEditor) && !actor.Has(RoleReviewer) && !actor.Has(RolePublisher) {
		return nil, ErrRoleRequired
	}
	if err := p.existsErr(); err != nil {
		return nil, err
	}
	if len(p.Comments) >= MaxComments {
		return nil, invalid("body", "comment.too_many", Args{"limit": MaxComments})
	}
	if err := checkText("body", c.Body, MaxLongText, true); err != nil {
		return nil, err
	}
	if c.On != "" && !p.hasCommentTarget(c.On) {
		return nil, invalid("on", "comment.unknown_target", Args{"target": c.On})
	}
	if c.ReplyTo != "" && p.comment(c.ReplyTo) < 0 {
		return nil, invalid("reply_to", "comment.unknown", Args{"comment": c.ReplyTo})
	}
	return one(ProposalID(p.ID), &events.CommentAdded{CommentID: fmt.Sprintf("c%d", len(p.Comments)+1),
		Revision: p.Revision, On: c.On, ReplyTo: c.ReplyTo, Body: c.Body}), nil
}

func (p *Proposal) hasCommentTarget(on string) bool {
	if id, ok := strings.CutPrefix(on, "evidence:"); ok {
		_, found := p.EvidenceByID(id)
		return found
	}
	if on == targetMethodology {
		return p.Methodology != nil
	}
	return slices.Contains(p.Targets(), on)
}

// ResolveComment closes a comment's thread.
type ResolveComment struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Proposal  string
	Comment   string
}

// DecideResolveComment lets the comment's author or the proposal's author
// resolve it, once.
func DecideResolveComment(p *Proposal, actor Actor, c ResolveComment) ([]Change, error) {
	if err := p.existsErr(); err != nil {
		return nil, err
	}
	i := p.comment(c.Comment)
	if i < 0 {
		return nil, invalid("comment", "comment.unknown", Args{"comment": c.Comment})
	}
	if actor.Name != p.Comments[i].Author && actor.Name != p.Author {
		return nil, ErrNotCommentAuthor
	}
	if p.Comments[i].Resolved {
		return nil, ErrCommentResolved
	}
	return one(ProposalID(p.ID), &events.CommentResolved{CommentID: c.Comment}), nil
}

// Conflict is a reviewer's declared conflict of interest.
type Conflict struct {
	User   string
	Entry  string // "" : the whole ranking
	Reason string
	At     time.Time
}

// conflictReason returns the reason user declared a conflict with entry or
// with the whole ranking ("" when none; r may be nil).
func (r *Ranking) conflictReason(user, entry string) string {
	if r == nil {
		return ""
	}
	for _, c := range r.Conflicts {
		if c.User == user && (c.Entry == "" || c.Entry == entry) {
			return c.Reason
		}
	}
	return ""
}

// DeclareConflict is a reviewer's declaration of their own conflict of
// interest with an entry of a ranking, or with the whole ranking.
type DeclareConflict struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Ranking   string
	Entry     string // "" : the whole ranking
	Reason    string
	// User is whom the conflict is declared for: "" or the actor, as
	// nobody declares a conflict for someone else.
	User string
}

// DecideDeclareConflict records a reviewer's own declaration; entry, when
// named, must be registered in the ranking.
func DecideDeclareConflict(r *Ranking, entry *Entry, actor Actor, c DeclareConflict) ([]Change, error) {
	if c.User != "" && c.User != actor.Name {
		return nil, ErrConflictForOther
	}
	if err := actor.require(RoleReviewer); err != nil {
		return nil, err
	}
	if !r.Exists() {
		return nil, ErrRankingMissing
	}
	if c.Entry != "" && !entry.Exists() {
		return nil, ErrEntryMissing
	}
	if err := checkText("reason", c.Reason, MaxShortText, true); err != nil {
		return nil, err
	}
	if slices.ContainsFunc(r.Conflicts, func(x Conflict) bool { return x.User == actor.Name && x.Entry == c.Entry }) {
		return nil, ErrConflictDeclared
	}
	return one(RankingID(r.Slug), &events.ConflictDeclared{User: actor.Name, Entry: c.Entry, Reason: c.Reason}), nil
}

// DeclaredConflicts returns the ranking's declared conflicts in the order
// they were declared.
func (r *Ranking) DeclaredConflicts() []Conflict { return slices.Clone(r.Conflicts) }
