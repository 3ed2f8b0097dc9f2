package desk

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// The workflow around a proposal's review, on its page: whose turn it is
// (the attention set), the reviewers requested and suggested, and the
// threaded comments with their forms.

// workflowView is the workflow part of a proposal's page.
type workflowView struct {
	Attention  []string     // whose turn it is, sorted
	Requested  []string     // the reviewers asked, in the order asked, each with their due date or overdue mark
	Zones      []zoneOption // the zones the request form's due date may be in
	CanRequest bool         // the user may ask reviewers (an editor, the proposal open)
	Suggested  []reviewerSuggestion
	Comments   []commentRow // the threads: each comment followed by its replies
	CanComment bool
	Targets    []commentTarget // what a comment may be on
}

// reviewerSuggestion is a reviewer the request form offers, least loaded
// with this entry's reviews first.
type reviewerSuggestion struct {
	Name    string
	Label   string // "Rita (rita) · 2 reviews of this entry"
	Checked bool   // among the first suggested
}

// commentRow is one comment in its thread.
type commentRow struct {
	ID         string
	Author     string
	When       string
	On         string // what it is on, in words ("" for the whole proposal)
	Body       string
	Revision   int
	Depth      int // 0 for a thread's start, 1 for a reply (replies to replies show at 1)
	Resolved   bool
	ResolvedBy string
	CanResolve bool
}

// commentTarget is one choice of the comment form's "on" select.
type commentTarget struct {
	Value string
	Label string
}

// suggestedCount is how many of the least loaded reviewers the form checks.
const suggestedCount = 2

// workflowOf builds the workflow part of a proposal's page for the
// signed-in user.
func (d *Desk) workflowOf(ctx context.Context, p ui.Page, l rankingLabels, dp *domain.Proposal) (workflowView, error) {
	me := httpx.Actor(ctx)
	v := workflowView{Attention: dp.AttentionSet(), Requested: requestedLabels(p, dp),
		CanRequest: me.Has(domain.RoleEditor) && dp.Status.Open(), Zones: scheduleZones(p.Lang, time.Now()),
		CanComment: me.Has(domain.RoleEditor) || me.Has(domain.RoleReviewer) || me.Has(domain.RolePublisher)}
	if v.CanRequest {
		loads, err := d.read.ReviewerLoads(ctx, dp.Ranking, dp.Entry)
		if err != nil {
			return v, err
		}
		// Whom the domain would accept: reviewers who may vote on it and
		// are not asked yet, least loaded with this entry first.
		for _, r := range loads {
			if !dp.CanVote(r.Username) || slices.Contains(dp.Requested, r.Username) {
				continue
			}
			v.Suggested = append(v.Suggested, reviewerSuggestion{Name: r.Username,
				Label:   p.T("desk.reviewers.suggestion", personLabel(r.DisplayName, r.Username), plural(p.Lang, "desk.reviewers.load", r.Votes, r.Votes)),
				Checked: len(v.Suggested) < suggestedCount})
		}
	}
	v.Comments = commentThreads(p, l, dp, me.Name)
	v.Targets = append(v.Targets, commentTarget{Value: "", Label: p.T("desk.comments.on_proposal")})
	if dp.Methodology != nil {
		v.Targets = append(v.Targets, commentTarget{Value: "methodology", Label: commentOn(p, l, "methodology")})
	}
	for _, t := range dp.Targets() {
		v.Targets = append(v.Targets, commentTarget{Value: t, Label: commentOn(p, l, t)})
	}
	for _, e := range dp.Evidence {
		on := "evidence:" + e.EvidenceID
		v.Targets = append(v.Targets, commentTarget{Value: on, Label: commentOn(p, l, on)})
	}
	return v, nil
}

// commentThreads orders the comments as threads: each comment that starts
// a thread, then the replies under it in the order written.
func commentThreads(p ui.Page, l rankingLabels, dp *domain.Proposal, me string) []commentRow {
	root := map[string]string{} // comment → the comment that starts its thread
	replies := map[string][]domain.Comment{}
	var starts []domain.Comment
	for _, c := range dp.Comments {
		if r, ok := root[c.ReplyTo]; ok || c.ReplyTo != "" {
			if !ok {
				r = c.ReplyTo
			}
			root[c.CommentID] = r
			replies[r] = append(replies[r], c)
			continue
		}
		root[c.CommentID] = c.CommentID
		starts = append(starts, c)
	}
	row := func(c domain.Comment, depth int) commentRow {
		return commentRow{ID: c.CommentID, Author: c.Author, When: p.DateTime(c.At), On: onLabel(p, l, c.On),
			Body: c.Body, Revision: c.Revision, Depth: depth, Resolved: c.Resolved, ResolvedBy: c.ResolvedBy,
			CanResolve: !c.Resolved && (me == c.Author || me == dp.Author)}
	}
	var out []commentRow
	for _, c := range starts {
		out = append(out, row(c, 0))
		for _, r := range replies[c.CommentID] {
			out = append(out, row(r, 1))
		}
	}
	return out
}

// onLabel names what a comment is on; "" for the whole proposal.
func onLabel(p ui.Page, l rankingLabels, on string) string {
	if on == "" {
		return ""
	}
	return commentOn(p, l, on)
}

// commentOn names a comment target: a change or an evidence item.
func commentOn(p ui.Page, l rankingLabels, on string) string {
	if id, ok := strings.CutPrefix(on, "evidence:"); ok {
		return p.T("desk.comments.on_evidence", id)
	}
	if on == "methodology" {
		return p.T("desk.comments.on_methodology")
	}
	return p.T("desk.comments.on_change", l.target(p.Lang, on))
}

// personLabel names a user by display name and username.
func personLabel(display, name string) string {
	if display == "" || display == name {
		return name
	}
	return display + " (" + name + ")"
}

// commentFormName tells a reply's form (one per comment) from the new
// comment's form.
func commentFormName(in *command.CommentInput) string {
	if in.ReplyTo != "" {
		return "reply-" + in.ReplyTo
	}
	return "comment"
}
