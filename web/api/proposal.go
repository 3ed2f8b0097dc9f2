package api

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// Proposal is the API's view of a proposal: its current revision with
// evidence, changes and votes, and how far it is from the quorum.
type Proposal struct {
	ID         string `json:"id"`
	Ranking    string `json:"ranking"`
	Kind       string `json:"kind"` // "" (an entry proposal) or "methodology"
	NewRanking bool   `json:"new_ranking"`
	// DependsOn is the new-ranking proposal an entry proposal of a ranking
	// not yet published was opened against; absent otherwise.
	DependsOn              string                           `json:"depends_on,omitempty"`
	Entry                  string                           `json:"entry"`
	NewEntry               bool                             `json:"new_entry"`
	Title                  string                           `json:"title"`
	Summary                string                           `json:"summary,omitempty"`
	Author                 string                           `json:"author"`
	Opened                 time.Time                        `json:"opened"`
	Status                 domain.Status                    `json:"status"`
	Revision               int                              `json:"revision"`
	Revisers               []string                         `json:"revisers"`
	Evidence               []Evidence                       `json:"evidence"`
	Scores                 []events.ScoreChangeProposed     `json:"scores"`
	Attributes             []events.AttributeChangeProposed `json:"attributes"`
	Votes                  []Vote                           `json:"votes"`
	Quorum                 Quorum                           `json:"quorum"`
	CrossValidatedRevision int                              `json:"cross_validated_revision,omitempty"`
	Edition                int                              `json:"edition,omitempty"`
	ClosedReason           string                           `json:"closed_reason,omitempty"`
	Sequence               uint64                           `json:"sequence"`
	// A methodology proposal's methodology, absent until one is proposed:
	// the whole methodology, why, the edition whose methodology it changes
	// (base) and what it changes against it.
	Methodology *events.Methodology        `json:"methodology,omitempty"`
	Rationale   events.Text                `json:"rationale,omitzero"`
	Base        *int                       `json:"base,omitempty"`
	Changes     []events.MethodologyChange `json:"changes,omitempty"`
	// Attention is whose turn it is (domain.Proposal.AttentionSet).
	Attention          []string  `json:"attention"`
	RequestedReviewers []string  `json:"requested_reviewers"`
	Comments           []Comment `json:"comments"`
	// ReviewDue is when each requested reviewer with a due date is due;
	// OverdueReviewers those nudged at it who have not answered since.
	ReviewDue        map[string]string `json:"review_due,omitempty"`
	OverdueReviewers []string          `json:"overdue_reviewers,omitempty"`
}

// Comment is one comment on a proposal; reply_to makes threads.
type Comment struct {
	ID         string    `json:"id"`
	Revision   int       `json:"revision"`
	On         string    `json:"on,omitempty"`
	ReplyTo    string    `json:"reply_to,omitempty"`
	Body       string    `json:"body"`
	Author     string    `json:"author"`
	At         time.Time `json:"at"`
	Resolved   bool      `json:"resolved"`
	ResolvedBy string    `json:"resolved_by,omitempty"`
}

// Quorum is domain.QuorumState with the API's field names.
type Quorum struct {
	Met         bool     `json:"met"`
	Approvers   []string `json:"approvers"`
	Needed      int      `json:"needed"`
	Unverified  []string `json:"unverified"`
	Vetoes      []string `json:"vetoes"`
	Outdated    []string `json:"outdated"`
	Ineligible  []string `json:"ineligible"`
	StaleTarget []string `json:"stale_targets"`
	// Conflicted are approvals that do not count, by reviewer, with the
	// reason the reviewer declared; OpenComments are reviewers' unresolved
	// comments (they never block).
	Conflicted   map[string]string `json:"conflicted"`
	OpenComments []string          `json:"open_comments"`
	// Revoked are approvals that do not count because their voter no
	// longer holds the reviewer role.
	Revoked []string `json:"revoked"`
	// RankingInReview names the new-ranking proposal whose proposed
	// methodology (criteria, quorum) the proposal is judged by while its
	// ranking is in review: it publishes together with that definition.
	// Absent once the ranking is defined.
	RankingInReview string `json:"ranking_in_review,omitempty"`
}

func quorumOf(q domain.QuorumState) Quorum {
	out := Quorum{Met: q.Met, Approvers: orEmpty(q.Approvers), Needed: q.Needed, Unverified: orEmpty(q.Unverified),
		Vetoes: orEmpty(q.Vetoes), Outdated: orEmpty(q.Outdated), Ineligible: orEmpty(q.Ineligible), StaleTarget: orEmpty(q.StaleTarget),
		Conflicted: q.Conflicted, OpenComments: orEmpty(q.OpenComments), Revoked: orEmpty(q.Revoked)}
	if out.Conflicted == nil {
		out.Conflicted = map[string]string{}
	}
	return out
}

// Evidence is one evidence item of the current revision, with who added it,
// whether it has gone stale, and its capture.
type Evidence struct {
	events.EvidenceAdded
	AddedBy string    `json:"added_by"`
	AddedAt time.Time `json:"added_at"`
	Stale   bool      `json:"stale"`
	// The capture of the source, as recorded: absent until the worker
	// records a result, and for items without a source URL.
	Capture       *events.EvidenceCaptured      `json:"capture,omitempty"`
	CaptureFailed *events.EvidenceCaptureFailed `json:"capture_failed,omitempty"`
	// What the scheduled re-checks of the captured source found last: a
	// newer version, or the source gone (absent when neither).
	SourceChanged *events.EvidenceSourceChanged `json:"source_changed,omitempty"`
	SourceDead    *events.EvidenceSourceDead    `json:"source_dead,omitempty"`
}

// Vote is one reviewer's verdict, and its dismissal if a publisher lifted it.
type Vote struct {
	Voter            string    `json:"voter"`
	Verdict          string    `json:"verdict"`
	Revision         int       `json:"revision"`
	VerifiedEvidence []string  `json:"verified_evidence"`
	Comment          string    `json:"comment,omitempty"`
	At               time.Time `json:"at"`
	Dismissed        bool      `json:"dismissed,omitempty"`
	DismissedBy      string    `json:"dismissed_by,omitempty"`
	DismissReason    string    `json:"dismiss_reason,omitempty"`
}

// proposal answers GET /api/v1/proposals/{id} from the event store
// through the command handler (always current; no read model needed).
func proposal(cmds *handler.Handler, read ReadModels) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		p, err := cmds.Proposal(ctx, r.PathValue("id"))
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		rs, err := proposalRankingState(ctx, cmds, p)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		v := proposalOf(p, httpx.Now(ctx))
		if err := judgedNow(ctx, cmds, p, rs, &v); err != nil {
			ui.Fail(w, r, err)
			return
		}
		if err := withChanges(ctx, read, &v); err != nil {
			ui.Fail(w, r, err)
			return
		}
		httpx.WriteJSON(w, http.StatusOK, v)
	}
}

// judgedNow sets v's quorum as a publish would judge it now, with the
// voters' current roles, and the status that follows: a cross-validated
// proposal whose quorum no longer holds is in review
// (domain.Proposal.StatusShown), as the read models list it.
func judgedNow(ctx context.Context, cmds *handler.Handler, p *domain.Proposal, rs rankingState, v *Proposal) error {
	q, err := cmds.QuorumNow(ctx, rs.judging.Ranking, rs.edition, p)
	if err != nil {
		return err
	}
	v.Quorum = quorumOf(q)
	v.Quorum.RankingInReview = rs.judging.InReview
	v.Status = p.StatusShown(q)
	return nil
}

// proposalOf is the API's view of p, but for its quorum and status
// (judgedNow).
func proposalOf(p *domain.Proposal, now time.Time) Proposal {
	v := Proposal{
		ID: p.ID, Ranking: p.Ranking, Entry: p.Entry, NewEntry: p.NewEntry, Title: p.Title, Summary: p.Summary,
		Author: p.Author, Opened: p.Opened, Status: p.Status, Revision: p.Revision,
		Revisers: orEmpty(p.Revisers), Evidence: []Evidence{}, Votes: []Vote{},
		Scores: []events.ScoreChangeProposed{}, Attributes: []events.AttributeChangeProposed{},
		DependsOn: p.DependsOn, CrossValidatedRevision: p.CrossValidatedRevision,
		Edition: p.Edition, ClosedReason: p.ClosedReason, Sequence: p.Seq, Kind: p.Kind, NewRanking: p.NewRanking,
		Attention: orEmpty(p.AttentionSet()), RequestedReviewers: orEmpty(slices.Clone(p.Requested)), Comments: []Comment{},
	}
	for _, r := range p.Requested {
		if due := p.DueOf(r); due != "" {
			if v.ReviewDue == nil {
				v.ReviewDue = map[string]string{}
			}
			v.ReviewDue[r] = due
		}
		if p.Overdue(r) {
			v.OverdueReviewers = append(v.OverdueReviewers, r)
		}
	}
	if m := p.Methodology; m != nil {
		base := m.Base
		v.Methodology, v.Rationale, v.Base = &m.Methodology, m.Rationale, &base
	}
	for _, c := range p.Comments {
		v.Comments = append(v.Comments, Comment{ID: c.CommentID, Revision: c.Revision, On: c.On, ReplyTo: c.ReplyTo,
			Body: c.Body, Author: c.Author, At: c.At, Resolved: c.Resolved, ResolvedBy: c.ResolvedBy})
	}
	for _, e := range p.Evidence {
		v.Evidence = append(v.Evidence, Evidence{EvidenceAdded: e.EvidenceAdded, AddedBy: e.AddedBy, AddedAt: e.AddedAt,
			Stale: e.Stale(now), Capture: e.Captured, CaptureFailed: e.CaptureFailure,
			SourceChanged: e.SourceChanged, SourceDead: e.SourceDead})
	}
	for _, c := range sortedKeys(p.Scores) {
		v.Scores = append(v.Scores, p.Scores[c])
	}
	for _, a := range sortedKeys(p.Attributes) {
		v.Attributes = append(v.Attributes, p.Attributes[a])
	}
	for _, name := range sortedKeys(p.Votes) {
		vt := p.Votes[name]
		v.Votes = append(v.Votes, Vote{Voter: vt.Voter, Verdict: vt.Verdict, Revision: vt.Revision,
			VerifiedEvidence: orEmpty(vt.VerifiedEvidence), Comment: vt.Comment, At: vt.At,
			Dismissed: vt.Dismissed, DismissedBy: vt.DismissBy, DismissReason: vt.DismissOn})
	}
	return v
}

// withChanges adds what a methodology proposal changes, as the read
// models recorded it when it was proposed (nothing without read models).
func withChanges(ctx context.Context, read ReadModels, v *Proposal) error {
	if v.Methodology == nil || read == nil {
		return nil
	}
	changes, err := read.MethodologyChanges(ctx, v.ID)
	v.Changes = orEmpty(changes)
	return err
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
