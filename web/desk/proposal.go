package desk

import (
	"cmp"
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

	Methodology *methodologyPanel // a methodology proposal's changes and moves; nil for an entry's

	ShowImpact bool
	Impact     impactView
	Diff       []diffRow
	Evidence   []evidenceRow
	Votes      []voteRow // every reviewer's latest vote
	History    []voteRow // votes later replaced by the same reviewer
	Revisions  []revisionRow
	Quorum     []quorumPart
	QuorumMet  bool
	Lifecycle  string // where the proposal stands, in words

	Can domain.Actions // the forms the page offers the user
	// ApprovedByMe reports whether the user's current vote approves the
	// current revision: the page says so instead of offering Approve
	// again, which would store the same approval once more.
	ApprovedByMe bool
	// MoreToVerify reports whether the current revision has evidence the
	// user's approval did not verify: approving again verifying it is
	// then offered, folded away.
	MoreToVerify bool
	Criteria     []criterionOption
	Attributes   []attrForm
	Citable      []evidenceChoice // evidence of the current revision, for citing and verifying
	Vetoes       []string         // reviewers with an open veto
	// Reverify is the drifted source this draft re-verifies
	// (?reverify=&evidence=), pre-filling the evidence and score forms;
	// nil for none.
	Reverify     *reverifySource
	ReverifyNote string
	// CaptureLive is the stream that says when a pending capture has a
	// result (CaptureEventsPath); "" when none is pending.
	CaptureLive string
	Workflow    workflowView // whose turn, reviewers requested, comments

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

// serveProposal shows a proposal.
func (d *Desk) serveProposal(w http.ResponseWriter, r *http.Request) {
	d.RenderProposal(w, r, http.StatusOK, "", ui.FormState{})
}

// buildProposalPage reads the proposal from the read models (what it
// shows) and from the command handler (what the user may do, and the rank
// impact, both always current). failed names a form to show st in.
func (d *Desk) buildProposalPage(r *http.Request, failed string, st ui.FormState) (proposalPageView, error) {
	ctx := r.Context()
	id := r.PathValue("id")
	if !events.ValidID(id) {
		return proposalPageView{}, domain.ErrProposalMissing
	}
	det, err := d.read.Proposal(ctx, id)
	if err != nil {
		return proposalPageView{}, err
	}
	dp, err := d.cmd.Proposal(ctx, id)
	if err != nil {
		return proposalPageView{}, err
	}
	// The ranking it is judged by: as defined, or as proposed while the
	// ranking is in review (an imported ranking's entries are reviewed
	// before its first edition).
	judging, err := d.cmd.JudgedBy(ctx, dp)
	if err != nil {
		return proposalPageView{}, err
	}
	rk := judging.Ranking
	ed, err := d.cmd.Edition(ctx, det.Ranking)
	if err != nil {
		return proposalPageView{}, err
	}
	// The quorum as a publish would judge it now, with the voters' current
	// roles: the read model's was computed when the proposal last changed,
	// before any role was revoked.
	quorum, err := d.cmd.QuorumNow(ctx, rk, ed, dp)
	if err != nil {
		return proposalPageView{}, err
	}
	p := ui.PageOf(r, "", "dashboard")
	p.Title = det.Title
	l := rankingLabels{rk}
	v := proposalPageView{
		Page: p, ID: det.ID, Summary: det.Summary, RankingTitle: l.title(p.Lang), RankingSlug: det.Ranking,
		EntrySlug: det.Entry, EntryHref: entryPath(det.Ranking, det.Entry), NewEntry: det.NewEntry,
		Status: det.Status, StatusText: p.StatusLabel(det.Status), Revision: det.Revision, Author: det.Author,
		Revisers: joinNames(p.Lang, det.Revisers), Opened: p.DateTime(parseTime(det.OpenedAt)),
		ClosedReason: det.ClosedReason, Edition: det.Edition, Draft: det.Status == domain.StatusDraft,
		Quorum: quorumParts(p, l, quorum, dp.QuoteNotFound()), QuorumMet: quorum.Met,
		Lifecycle: p.T("desk.lifecycle." + string(det.Status)),
		Can:       dp.Allowed(httpx.Actor(ctx), ed), Vetoes: dp.OpenVetoes(),
		Today:  httpx.Now(ctx).UTC().Format(time.DateOnly),
		failed: failed, state: st,
	}
	v.ApprovedByMe, v.MoreToVerify = approvedBy(p.User.Username, det)
	if r.URL.Query().Get(validatedParam) != "" && det.Status == domain.StatusCrossValidated {
		v.Notice = p.T("desk.vote.now_validated")
	}
	if judging.InReview != "" {
		v.Quorum = append(v.Quorum, rankingInReviewPart(p, l, judging.InReview, len(v.Quorum) == 0))
	}
	if dp.IsMethodology() {
		v.EntryName, v.EntryHref = v.RankingTitle, ""
		v.Methodology, err = d.methodologyPanelOf(ctx, p, dp, v.Can)
		v.Votes, v.History = voteRows(p, det)
		v.Revisions = revisionRows(p, det)
		v.Evidence = evidenceRows(p, l, det, v.Can.Edit, httpx.Now(ctx))
		v.Citable = citable(det)
		return v, err
	}
	v.EntryName = det.Entry
	if pe := ed.Entry(det.Entry); pe != nil {
		v.EntryName = cmp.Or(pe.Name.In(p.Lang), det.Entry)
	} else if e, err := d.cmd.Entry(ctx, det.Ranking, det.Entry); err == nil {
		v.EntryName = cmp.Or(e.Name.In(p.Lang), det.Entry)
	}
	if det.Status.Open() {
		im, err := d.cmd.RankImpact(ctx, id)
		if err != nil {
			return v, err
		}
		v.ShowImpact, v.Impact = true, impactOf(p, id, im)
	}
	v.Diff = diffRows(p, l, det, ed)
	v.Evidence = evidenceRows(p, l, det, v.Can.Edit, httpx.Now(ctx))
	if d.passages != nil {
		for i, e := range v.Evidence {
			if c := e.Capture; c != nil && c.State == "captured" && c.Quote != "unchecked" {
				c.Passage, c.PassageT = PassagePath(det.ID, e.ID, false), p.T("desk.passage.link")
				v.Evidence[i].Capture = c
			}
		}
	}
	settled := 0
	for _, e := range det.Evidence {
		if e.Capture.State != domain.CaptureNone {
			settled++
		}
	}
	for _, e := range v.Evidence {
		if e.Capture != nil && e.Capture.State == "pending" && !e.Removed {
			v.CaptureLive = CaptureEventsPath(det.ID, settled)
		}
	}
	v.Votes, v.History = voteRows(p, det)
	v.Revisions = revisionRows(p, det)
	v.Citable = citable(det)
	if v.Workflow, err = d.workflowOf(ctx, p, l, dp); err != nil {
		return v, err
	}
	if v.Can.Edit {
		if ref, ok := reverifyRefOf(r.URL.Query()); ok && failed == "" {
			if v.Reverify, err = d.reverifySourceOf(ctx, det.Ranking, det.Entry, ref); err != nil {
				return v, err
			}
		}
		v.Criteria = criterionOptions(p, rk, ed.Entry(det.Entry), det, v.Form("score"))
		v.Attributes = attrForms(p, v, rk, ed.Entry(det.Entry), det)
		if s := v.Reverify; s != nil {
			v.ReverifyNote = reverifyNote(p, l, s)
			for i := range v.Criteria {
				v.Criteria[i].Selected = v.Criteria[i].Slug == s.Criterion()
			}
		}
	}
	return v, nil
}

// joinNames joins names for running text; "" for none.
func joinNames(lang string, names []string) string { return strings.Join(names, listSep(lang)) }
