package web

import (
	"net/http"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// proposalPageView is the model of a proposal's page: the editor while it
// is a draft of the user's, the review page for everyone else, and the
// record once it is closed. Every button it offers is one the domain would
// accept from this user now; the server checks again on every post.
type proposalPageView struct {
	ui.Page
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

	Can        domain.Actions // the forms the page offers the user
	Criteria   []ppCriterionOption
	Attributes []ppAttrForm
	Citable    []ppEvidenceChoice // evidence of the current revision, for citing and verifying
	Vetoes     []string           // reviewers with an open veto

	failed string       // the form whose submit failed, "" for none
	state  ui.FormState // what it showed
}

// Form returns the state of the named form: what a failed submit showed,
// or an empty state (a fresh command id) for every other form.
func (v proposalPageView) Form(name string) ui.FormState {
	if v.failed == name {
		return v.state
	}
	return ui.FormState{}
}

// proposalPage shows a proposal.
func (s *Server) proposalPage(w http.ResponseWriter, r *http.Request) {
	v, err := s.buildProposalPage(r, "", ui.FormState{})
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	ui.Render(w, r, http.StatusOK, proposalPageTmpl(v))
}

// buildProposalPage reads the proposal from the read models (what it
// shows) and from the command handler (what the user may do, and the rank
// impact, both always current). failed names a form to show st in.
func (s *Server) buildProposalPage(r *http.Request, failed string, st ui.FormState) (proposalPageView, error) {
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
	p := ui.PageOf(r, "", "dashboard")
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
		Can:       dp.Allowed(httpx.Actor(ctx), ed), Vetoes: dp.OpenVetoes(),
		Today:  httpx.Now(ctx).UTC().Format(time.DateOnly),
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
	v.Evidence = ppEvidenceRows(p, l, d, v.Can.Edit, httpx.Now(ctx))
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
