package domain

import (
	"slices"
	"sort"
	"time"

	"github.com/crossrank/crossrank/events"
)

// Status is where a proposal stands in its lifecycle.
type Status string

// The proposal lifecycle:
//
//	draft ──submit──▶ in_review ──quorum──▶ cross_validated ──publish──▶ published
//	  ▲                 │   │                     │
//	  └──revise─────────┘   └──reject──▶ rejected  └──(baseline changed)──▶ in_review
//	draft/in_review ──withdraw──▶ withdrawn
const (
	StatusDraft          Status = "draft"
	StatusInReview       Status = "in_review"
	StatusCrossValidated Status = "cross_validated"
	StatusPublished      Status = "published"
	StatusRejected       Status = "rejected"
	StatusWithdrawn      Status = "withdrawn"
)

// Open reports whether the proposal can still change.
func (s Status) Open() bool {
	return s == StatusDraft || s == StatusInReview || s == StatusCrossValidated
}

// Evidence is one evidence item of a proposal.
type Evidence struct {
	events.EvidenceAdded
	AddedBy string
	AddedAt time.Time
	// The capture of SourceURL: at most one of the two is set, once.
	Captured       *events.EvidenceCaptured      // nil until the source is captured
	CaptureFailure *events.EvidenceCaptureFailed // nil unless its capture failed
	// What the scheduled re-checks of the captured source found last.
	SourceChanged *events.EvidenceSourceChanged // the latest new version seen; nil if none
	SourceDead    *events.EvidenceSourceDead    // nil unless the source was gone at the latest record
	RecheckTick   string                        // the tick of the latest record
}

// Stale reports whether the evidence has passed its validity at day now.
func (e Evidence) Stale(now time.Time) bool {
	if e.ValidForDays <= 0 {
		return false
	}
	obs, err := time.Parse(time.DateOnly, e.ObservedOn)
	if err != nil {
		return false
	}
	return now.After(obs.AddDate(0, 0, e.ValidForDays))
}

// Vote is a reviewer's latest vote on a proposal.
type Vote struct {
	events.VoteCast
	Voter     string
	At        time.Time
	Dismissed bool // a publisher dismissed this veto
	DismissBy string
	DismissOn string // the reason
}

// Proposal is the unit of review: changes to one entry with their evidence.
type Proposal struct {
	ID       string
	Ranking  string
	Entry    string
	NewEntry bool
	Title    string
	Summary  string
	Author   string
	Opened   time.Time
	Status   Status
	Revision int
	Revisers []string
	Kind     string // KindEntry or KindMethodology
	// NewRanking: a methodology proposal that defines its ranking.
	NewRanking bool
	// DependsOn: the new-ranking proposal an entry proposal's ranking is
	// defined by, while that ranking is unpublished.
	DependsOn   string
	Methodology *ProposedMethodology // a methodology proposal's proposal; nil until set
	Requested   []string             // reviewers asked to review it, in the order asked
	Due         map[string]string    // requested reviewer → when their review is due (RFC 3339); absent: no due date
	Nudged      map[string]string    // requested reviewer → the due date they were nudged for
	Comments    []Comment            // in the order added

	Evidence   []Evidence                                // current revision, in order added
	Scores     map[string]events.ScoreChangeProposed     // by criterion
	Attributes map[string]events.AttributeChangeProposed // by attribute key
	Votes      map[string]*Vote                          // latest vote by voter

	CrossValidatedRevision int
	Edition                int // edition it was published in
	ClosedReason           string
	EvidenceSeq            int // evidence items ever added; ids are never reused
	Seq                    uint64
}

// Exists reports whether the proposal has been opened.
func (p *Proposal) Exists() bool { return p != nil && p.ID != "" }

// Evolve applies one event to the proposal.
func (p *Proposal) Evolve(e events.Event) {
	p.Seq = e.Sequence
	switch d := e.Data.(type) {
	case *events.ProposalOpened:
		p.ID, p.Ranking, p.Entry, p.NewEntry = e.Subject, d.Ranking, d.Entry, d.NewEntry
		p.Title, p.Summary, p.Author, p.Opened = d.Title, d.Summary, e.Actor, e.Time
		p.NewRanking, p.DependsOn = d.NewRanking, d.DependsOn
		if d.Methodology {
			p.Kind = KindMethodology
		}
		p.Status, p.Revision = StatusDraft, 1
		p.Scores = map[string]events.ScoreChangeProposed{}
		p.Attributes = map[string]events.AttributeChangeProposed{}
		p.Votes = map[string]*Vote{}
		if d.Proposed != nil {
			p.evolveMethodology(d.Proposed)
		}
	case *events.EvidenceAdded:
		p.Evidence = append(p.Evidence, Evidence{EvidenceAdded: *d, AddedBy: e.Actor, AddedAt: e.Time})
		p.EvidenceSeq++
	case *events.EvidenceRemoved:
		p.Evidence = slices.DeleteFunc(p.Evidence, func(x Evidence) bool { return x.EvidenceID == d.EvidenceID })
	case *events.EvidenceCaptured:
		p.evolveCapture(d.EvidenceID, d, nil)
	case *events.EvidenceCaptureFailed:
		p.evolveCapture(d.EvidenceID, nil, d)
	case *events.EvidenceSourceChanged:
		p.evolveRecheck(d.EvidenceID, d.Tick, d, nil)
	case *events.EvidenceSourceDead:
		p.evolveRecheck(d.EvidenceID, d.Tick, nil, d)
	case *events.MethodologyProposed:
		p.evolveMethodology(d)
	case *events.ScoreChangeProposed:
		p.Scores[d.Criterion] = *d
	case *events.AttributeChangeProposed:
		p.Attributes[d.Attribute] = *d
	case *events.ChangeRemoved:
		kind, key := splitTarget(d.Target)
		if kind == "score" {
			delete(p.Scores, key)
		} else {
			delete(p.Attributes, key)
		}
	case *events.ProposalSubmitted:
		p.Status = StatusInReview
	case *events.ProposalRevised:
		p.Status, p.Revision = StatusDraft, d.Revision
		if e.Actor != p.Author && !slices.Contains(p.Revisers, e.Actor) {
			p.Revisers = append(p.Revisers, e.Actor)
		}
		p.rebase(d.Rebase)
	case *events.VoteCast:
		v := &Vote{VoteCast: *d, Voter: e.Actor, At: e.Time}
		v.Transition = events.Transition{} // the proposal's, not the vote's
		p.Votes[e.Actor] = v
		p.evolveTransition(d.Transition)
	case *events.VetoDismissed:
		if v := p.Votes[d.Voter]; v != nil {
			v.Dismissed, v.DismissBy, v.DismissOn = true, e.Actor, d.Reason
		}
		p.evolveTransition(d.Transition)
	case *events.ProposalCrossValidated:
		p.evolveTransition(events.Transition{CrossValidated: d})
	case *events.ProposalReturnedToReview:
		p.evolveTransition(events.Transition{ReturnedToReview: d})
	case *events.ProposalPublished:
		p.Status, p.Edition = StatusPublished, d.Edition
	case *events.ReviewersRequested, *events.CommentAdded, *events.CommentResolved:
		p.evolveWorkflow(e)
		p.evolveDue(e)
	case *events.ReviewNudged:
		p.evolveDue(e)
	case *events.ProposalRejected:
		p.Status, p.ClosedReason = StatusRejected, d.Reason
	case *events.ProposalWithdrawn:
		p.Status, p.ClosedReason = StatusWithdrawn, d.Reason
	}
}

// evolveMethodology sets the methodology the proposal proposes, from a
// MethodologyProposed of its own or one carried by the ProposalOpened.
func (p *Proposal) evolveMethodology(d *events.MethodologyProposed) {
	p.Methodology = &ProposedMethodology{Methodology: d.Methodology, Base: d.Base, Rationale: d.Rationale}
}

// evolveTransition applies a change of status, whether a separate event
// or one carried by a vote or a dismissed veto (events.Transition).
func (p *Proposal) evolveTransition(t events.Transition) {
	switch {
	case t.CrossValidated != nil:
		p.Status, p.CrossValidatedRevision = StatusCrossValidated, t.CrossValidated.Revision
	case t.ReturnedToReview != nil:
		p.Status, p.CrossValidatedRevision = StatusInReview, 0
	}
}

func (p *Proposal) rebase(rs []events.Rebase) {
	for _, r := range rs {
		if r.Target == targetMethodology {
			if p.Methodology != nil && r.Edition != nil {
				p.Methodology.Base = *r.Edition
			}
			continue
		}
		kind, key := splitTarget(r.Target)
		if kind == "score" {
			if c, ok := p.Scores[key]; ok {
				c.From = r.Score
				p.Scores[key] = c
			}
		} else if c, ok := p.Attributes[key]; ok {
			c.From = r.Tags
			p.Attributes[key] = c
		}
	}
}

// EvidenceByID returns the evidence item with id in the current revision.
func (p *Proposal) EvidenceByID(id string) (Evidence, bool) {
	i := slices.IndexFunc(p.Evidence, func(e Evidence) bool { return e.EvidenceID == id })
	if i < 0 {
		return Evidence{}, false
	}
	return p.Evidence[i], true
}

// EvidenceIDs returns the ids of the current revision's evidence, in order.
func (p *Proposal) EvidenceIDs() []string {
	out := make([]string, len(p.Evidence))
	for i, e := range p.Evidence {
		out[i] = e.EvidenceID
	}
	return out
}

// CanEdit reports whether user may edit the proposal's draft: its author or a reviser.
func (p *Proposal) CanEdit(user string) bool {
	return user == p.Author || slices.Contains(p.Revisers, user)
}

// Targets returns "score:<criterion>" and "attr:<key>" for every change, sorted.
func (p *Proposal) Targets() []string {
	var out []string
	for c := range p.Scores {
		out = append(out, "score:"+c)
	}
	for a := range p.Attributes {
		out = append(out, "attr:"+a)
	}
	sort.Strings(out)
	return out
}

// targetMethodology is a methodology proposal's one change, as StaleTargets
// and Rebase name it.
const targetMethodology = "methodology"

func splitTarget(t string) (kind, key string) {
	for i := 0; i < len(t); i++ {
		if t[i] == ':' {
			if t[:i] == "attr" {
				return "attr", t[i+1:]
			}
			return "score", t[i+1:]
		}
	}
	return "score", t
}

// StaleTargets returns the changes whose baseline differs from the published
// ranking in ed: the proposal must be revised before it can be published.
func (p *Proposal) StaleTargets(ed *Edition) []string {
	var out []string
	if p.Methodology != nil && p.Methodology.Base != ed.MethodologyEdition {
		out = append(out, targetMethodology)
	}
	pub := ed.Entry(p.Entry)
	for c, ch := range p.Scores {
		var cur *int
		if pub != nil {
			if v, ok := pub.Scores[c]; ok {
				cur = &v
			}
		}
		if !sameScore(ch.From, cur) {
			out = append(out, "score:"+c)
		}
	}
	for a, ch := range p.Attributes {
		var cur []string
		if pub != nil {
			cur = pub.Attributes[a]
		}
		if !slices.Equal(normTags(ch.From), normTags(cur)) {
			out = append(out, "attr:"+a)
		}
	}
	sort.Strings(out)
	return out
}

func sameScore(a, b *int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func normTags(t []string) []string {
	if len(t) == 0 {
		return nil
	}
	out := slices.Clone(t)
	slices.Sort(out)
	return out
}
