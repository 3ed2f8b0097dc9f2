package web

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// proposalPageView is the model of a proposal's page: the editor while it
// is a draft of the user's, the review page for everyone else, and the
// record once it is closed. Every button it offers is one the domain would
// accept from this user now; the server checks again on every post.
type proposalPageView struct {
	Page
	ID           string
	Summary      string
	RankingTitle string
	RankingSlug  string
	EntryName    string
	EntrySlug    string
	EntryHref    string
	NewEntry     bool
	Status       domain.Status
	StatusText   string
	Revision     int
	Author       string
	Revisers     string // "" when nobody revised it
	Opened       string
	ClosedReason string
	Edition      int // the edition that published it, 0 if none
	Draft        bool
	Today        string // YYYY-MM-DD, the evidence form's default observation day

	ShowImpact bool
	Impact     ppImpactView
	Diff       []ppDiffRow
	Evidence   []ppEvidenceRow
	Votes      []ppVoteRow // every reviewer's latest vote
	History    []ppVoteRow // votes later replaced by the same reviewer
	Revisions  []ppRevisionRow
	Quorum     []ppQuorumPart
	QuorumMet  bool
	Lifecycle  string // where the proposal stands, in words

	Can        ppActions
	Criteria   []ppCriterionOption
	Attributes []ppAttrForm
	Citable    []ppEvidenceChoice // evidence of the current revision, for citing and verifying
	Vetoes     []string           // reviewers with an open veto

	failed string    // the form whose submit failed, "" for none
	state  formState // what it showed
}

// ppActions says which forms the page offers the user.
type ppActions struct {
	Edit     bool // add or remove evidence and changes
	Rebase   bool // a change's baseline was published over: propose it again before submitting
	Submit   bool
	Revise   bool
	Withdraw bool
	Vote     bool
	Dismiss  bool // a veto, as a publisher
	Reject   bool // the proposal, as a publisher
}

// ppAllowedActions applies the domain's rules for actor to p, against the
// published edition ed: the same checks the Decide functions make, so a
// page never offers a button the command would refuse for the user's
// roles or the proposal's state.
func ppAllowedActions(a domain.Actor, p *domain.Proposal, ed *domain.Edition) ppActions {
	var c ppActions
	if a.Name == "" || !p.Exists() {
		return c
	}
	open, draft := p.Status.Open(), p.Status == domain.StatusDraft
	c.Edit = a.Has(domain.RoleEditor) && p.CanEdit(a.Name) && draft
	c.Submit = c.Edit && len(p.Scores)+len(p.Attributes) > 0 && len(p.StaleTargets(ed)) == 0
	c.Rebase = c.Edit && len(p.StaleTargets(ed)) > 0
	c.Revise = a.Has(domain.RoleEditor) && open && !draft
	c.Withdraw = a.Has(domain.RoleEditor) && a.Name == p.Author &&
		(draft || p.Status == domain.StatusInReview)
	c.Vote = a.Has(domain.RoleReviewer) && open && !draft && p.CanVote(a.Name)
	c.Reject = a.Has(domain.RolePublisher) && open && p.CanVote(a.Name)
	c.Dismiss = c.Reject && len(ppOpenVetoes(p)) > 0
	return c
}

// ppOpenVetoes lists the reviewers whose reject still blocks p, sorted.
func ppOpenVetoes(p *domain.Proposal) []string {
	var out []string
	for name, v := range p.Votes {
		if v.Verdict == events.Reject && !v.Dismissed {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Form returns the state of the named form: what a failed submit showed,
// or an empty state (a fresh command id) for every other form.
func (v proposalPageView) Form(name string) formState {
	if v.failed == name {
		return v.state
	}
	return formState{}
}

// proposalPage shows a proposal.
func (s *Server) proposalPage(w http.ResponseWriter, r *http.Request) {
	v, err := s.buildProposalPage(r, "", formState{})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, proposalPageTmpl(v))
}

// buildProposalPage reads the proposal from the read models (what it
// shows) and from the command handler (what the user may do, and the rank
// impact, both always current). failed names a form to show st in.
func (s *Server) buildProposalPage(r *http.Request, failed string, st formState) (proposalPageView, error) {
	ctx := r.Context()
	id := r.PathValue("id")
	if !events.ValidID(id) {
		return proposalPageView{}, domain.ErrProposalMissing
	}
	d, err := s.read.Proposal(ctx, id)
	if err != nil {
		return proposalPageView{}, err
	}
	dp, err := s.cmd.Proposal(ctx, id)
	if err != nil {
		return proposalPageView{}, err
	}
	rk, _, err := s.read.Definition(ctx, d.Ranking)
	if err != nil {
		return proposalPageView{}, err
	}
	ed, err := s.cmd.Edition(ctx, d.Ranking)
	if err != nil {
		return proposalPageView{}, err
	}
	p := s.page(r, "", "dashboard")
	p.Title = d.Title
	l := deskLabels{rk}
	v := proposalPageView{
		Page: p, ID: d.ID, Summary: d.Summary, RankingTitle: l.title(p.Lang), RankingSlug: d.Ranking,
		EntrySlug: d.Entry, EntryHref: deskEntryPath(d.Ranking, d.Entry), NewEntry: d.NewEntry,
		Status: d.Status, StatusText: p.StatusLabel(d.Status), Revision: d.Revision, Author: d.Author,
		Revisers: deskJoin(p.Lang, d.Revisers), Opened: p.DateTime(deskTime(d.OpenedAt)),
		ClosedReason: d.ClosedReason, Edition: d.Edition, Draft: d.Status == domain.StatusDraft,
		Quorum: ppQuorumParts(p, l, d.Quorum), QuorumMet: d.Quorum.Met,
		Lifecycle: p.T("desk.lifecycle." + string(d.Status)),
		Can:       ppAllowedActions(actorOf(ctx), dp, ed), Vetoes: ppOpenVetoes(dp),
		Today:  requestOf(ctx).now.UTC().Format(time.DateOnly),
		failed: failed, state: st,
	}
	v.EntryName = d.Entry
	if pe := ed.Entry(d.Entry); pe != nil {
		v.EntryName = deskOrSlug(pe.Name.In(p.Lang), d.Entry)
	} else if e, err := s.cmd.Entry(ctx, d.Ranking, d.Entry); err == nil {
		v.EntryName = deskOrSlug(e.Name.In(p.Lang), d.Entry)
	}
	if d.Status.Open() {
		im, err := s.cmd.RankImpact(ctx, id)
		if err != nil {
			return v, err
		}
		v.ShowImpact, v.Impact = true, ppBuildImpact(p, id, im)
	}
	v.Diff = ppDiffRows(p, l, d, ed)
	v.Evidence = ppEvidenceRows(p, l, d, v.Can.Edit, requestOf(ctx).now)
	v.Votes, v.History = ppVoteRows(p, d)
	v.Revisions = ppRevisionRows(p, d)
	v.Citable = ppCitable(d)
	if v.Can.Edit {
		v.Criteria = ppCriterionOptions(p, rk, ed.Entry(d.Entry), d, v.Form("score"))
		v.Attributes = ppAttrForms(p, v, rk, ed.Entry(d.Entry), d)
	}
	return v, nil
}

// deskJoin joins names for running text; "" for none.
func deskJoin(lang string, names []string) string { return strings.Join(names, deskListSep(lang)) }
