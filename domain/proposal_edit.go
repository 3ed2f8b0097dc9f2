package domain

import (
	"fmt"
	"slices"
	"strings"

	"github.com/crossrank/crossrank/events"
)

// OpenProposal starts a proposal for an existing entry, or for a new entry
// when NewEntry is set.
type OpenProposal struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	ID        string // the proposal id (a UUIDv7 chosen by the caller)
	Ranking   string
	Entry     string // entry slug
	NewEntry  *NewEntry
	Title     string
	Summary   string
	// Methodology opens a methodology proposal (Entry empty) instead;
	// NewRanking, one that defines a ranking not yet defined.
	Methodology bool
	NewRanking  bool
	// DependsOn names the open new-ranking proposal whose methodology an
	// entry proposal is checked against while its ranking is unpublished.
	DependsOn string
	// Proposed, for a methodology proposal, is the methodology it proposes
	// from the start, with its Rationale: opening and proposing are then
	// one atomic append.
	Proposed  *events.Methodology
	Rationale events.Text
}

// CheckProposalRefs checks the ids an OpenProposal names, before anything
// is loaded: the proposal's, its ranking's, its entry's (unless it is a
// methodology proposal) and the proposal it depends on, if any.
func CheckProposalRefs(c OpenProposal) error {
	if !events.ValidID(c.ID) || !events.ValidID(c.Ranking) || (!c.Methodology && CheckSlug("entry", c.Entry) != nil) ||
		(c.DependsOn != "" && !events.ValidID(c.DependsOn)) {
		return invalid("proposal", "field.bad_proposal_ref", nil)
	}
	return nil
}

// DecideOpenProposal yields ProposalOpened, preceded by EntryCreated for a
// new entry (the two are appended atomically: they change two aggregates,
// and the entry's subject guards the slug's uniqueness). A methodology
// proposed from the start is part of the ProposalOpened.
func DecideOpenProposal(r *Ranking, entry *Entry, ed *Edition, p *Proposal, actor Actor, c OpenProposal) ([]Change, error) {
	if err := proposalWriter(actor, c.Ranking, c.Entry, c.Methodology, c.NewEntry != nil); err != nil {
		return nil, err
	}
	if p.Exists() {
		return nil, ErrProposalExists
	}
	if !events.ValidID(c.ID) {
		return nil, invalid("id", "field.bad_proposal_id", nil)
	}
	if err := checkName("title", c.Title, MaxTitle, true); err != nil {
		return nil, err
	}
	if err := checkText("summary", c.Summary, MaxLongText, false); err != nil {
		return nil, err
	}
	if c.Methodology {
		switch {
		case c.Entry != "" || c.NewEntry != nil:
			return nil, invalid("entry", "methodology.no_entry", nil)
		case c.NewRanking && r.Exists():
			return nil, ErrRankingExists
		case c.NewRanking:
			if err := CheckSlug("ranking", c.Ranking); err != nil {
				return nil, err
			}
		case !r.Exists():
			return nil, ErrRankingMissing
		}
		open := &events.ProposalOpened{Ranking: c.Ranking, Title: c.Title, Summary: c.Summary,
			Methodology: true, NewRanking: c.NewRanking}
		if c.Proposed == nil {
			return one(ProposalID(c.ID), open), nil
		}
		if ed == nil {
			ed = &Edition{}
		}
		// The methodology proposed from the start rides in the opening
		// event (events.ProposalOpened.Proposed): one event on the
		// proposal, decided as DecideProposeMethodology decides a later one.
		opened := &Proposal{ID: c.ID, Ranking: c.Ranking, Kind: KindMethodology, NewRanking: c.NewRanking,
			Author: actor.Name, Status: StatusDraft, Revision: 1}
		proposed, err := DecideProposeMethodology(r, ed, opened, actor, ProposeMethodology{Proposal: c.ID,
			Methodology: *c.Proposed, Rationale: c.Rationale})
		if err != nil {
			return nil, err
		}
		open.Proposed = proposed[0].Data.(*events.MethodologyProposed)
		return one(ProposalID(c.ID), open), nil
	}
	if c.NewRanking || c.Proposed != nil {
		return nil, invalid("new_ranking", "methodology.new_ranking_only", nil)
	}
	if !r.Exists() {
		return nil, ErrRankingMissing
	}
	if err := CheckSlug("entry", c.Entry); err != nil {
		return nil, err
	}
	dependsOn := ""
	if r.Edition == 0 && r.Seq == 0 { // checked against a proposed definition
		dependsOn = c.DependsOn
	}
	var out []Change
	if c.NewEntry != nil {
		if entry.Exists() || ed.Entry(c.Entry) != nil {
			return nil, ErrEntryExists
		}
		n := c.NewEntry
		if err := checkI18nName("name", n.Name.Zh, n.Name.En, MaxTitle, true); err != nil {
			return nil, err
		}
		if !r.HasCategory(n.Category) {
			return nil, invalid("category", "ranking.not_category", nil)
		}
		if err := CheckURL("website", n.Website); err != nil {
			return nil, err
		}
		if err := checkI18n("description", n.Description.Zh, n.Description.En, MaxLongText, false); err != nil {
			return nil, err
		}
		out = append(out, Change{EntryID(r.Slug, c.Entry), &events.EntryCreated{
			Ranking: r.Slug, Slug: c.Entry, Name: n.Name, Category: n.Category,
			Website: n.Website, Description: n.Description, Proposal: c.ID,
		}})
	} else if !entry.Exists() {
		return nil, ErrEntryMissing
	}
	return append(out, Change{ProposalID(c.ID), &events.ProposalOpened{
		Ranking: r.Slug, Entry: c.Entry, NewEntry: c.NewEntry != nil, Title: c.Title, Summary: c.Summary,
		DependsOn: dependsOn,
	}}), nil
}

// AddEvidence attaches a source to a draft.
type AddEvidence struct {
	CommandID    string // the caller's idempotency key: the id of the command's first event
	Proposal     string
	Claim        events.Text // one language or both (issue 43)
	SourceURL    string
	SourceName   string
	Section      string
	Excerpt      string
	ObservedOn   string // YYYY-MM-DD
	ValidForDays int
	Tier         Tier // "" when not stated
}

// MaxEvidence bounds the evidence items of one revision.
const MaxEvidence = 100

// DecideAddEvidence yields EvidenceAdded with the next evidence id.
func DecideAddEvidence(p *Proposal, actor Actor, c AddEvidence) ([]Change, error) {
	if err := p.may(actor, actionEdit, nil); err != nil {
		return nil, err
	}
	if len(p.Evidence) >= MaxEvidence {
		return nil, invalid("evidence", "evidence.too_many", Args{"limit": MaxEvidence})
	}
	for _, f := range []struct {
		name, v string
		max     int
		req     bool
	}{
		{"source_name", c.SourceName, MaxShortText, false},
		{"section", c.Section, MaxTitle, false}, {"excerpt", c.Excerpt, MaxExcerpt, true},
	} {
		if err := checkText(f.name, f.v, f.max, f.req); err != nil {
			return nil, err
		}
	}
	// A claim may be in either language or both, each within the limit a
	// one-string claim had; the error names the language at fault.
	if err := checkI18n("claim", c.Claim.Zh, c.Claim.En, MaxShortText, true); err != nil {
		return nil, err
	}
	if err := CheckURL("source_url", c.SourceURL); err != nil {
		return nil, err
	}
	if strings.TrimSpace(c.SourceURL) == "" && strings.TrimSpace(c.SourceName) == "" {
		return nil, invalid("source_url", "evidence.source_required", nil)
	}
	if err := checkDate("observed_on", c.ObservedOn, true); err != nil {
		return nil, err
	}
	if c.ValidForDays < 0 || c.ValidForDays > 3650 {
		return nil, invalid("valid_for_days", "field.validity_days", nil)
	}
	if c.Tier != "" && !c.Tier.Valid() {
		return nil, invalid("tier", "evidence.bad_tier", Args{"tier": string(c.Tier)})
	}
	tier, err := vendorTier(actor, c.Tier)
	if err != nil {
		return nil, err
	}
	c.Tier = tier
	return one(ProposalID(p.ID), &events.EvidenceAdded{
		EvidenceID: fmt.Sprintf("e%d", p.EvidenceSeq+1), Revision: p.Revision,
		Claim: c.Claim, SourceURL: c.SourceURL, SourceName: c.SourceName, Section: c.Section,
		Excerpt: c.Excerpt, ObservedOn: c.ObservedOn, ValidForDays: c.ValidForDays, Tier: string(c.Tier),
	}), nil
}

// RemoveEvidence drops an evidence item from a draft.
type RemoveEvidence struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Proposal  string
	Evidence  string // the evidence id
}

// DecideRemoveEvidence drops an evidence item no change cites.
func DecideRemoveEvidence(p *Proposal, actor Actor, evidenceID string) ([]Change, error) {
	if err := p.may(actor, actionEdit, nil); err != nil {
		return nil, err
	}
	if _, ok := p.EvidenceByID(evidenceID); !ok {
		return nil, ErrUnknownEvidence
	}
	for _, t := range p.Targets() {
		if slices.Contains(p.citations(t), evidenceID) {
			return nil, invalid("evidence", "evidence.still_cited", Args{"evidence": evidenceID, "change": t})
		}
	}
	return one(ProposalID(p.ID), &events.EvidenceRemoved{EvidenceID: evidenceID, Revision: p.Revision}), nil
}

func (p *Proposal) citations(target string) []string {
	kind, key := splitTarget(target)
	if kind == "score" {
		return p.Scores[key].Evidence
	}
	return p.Attributes[key].Evidence
}

func (p *Proposal) checkCitations(ids []string) error {
	if len(ids) == 0 {
		return ErrUncitedChange
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if _, ok := p.EvidenceByID(id); !ok {
			return fmt.Errorf("%w: %q", ErrUnknownEvidence, id)
		}
		if seen[id] {
			return invalid("evidence", "evidence.cited_twice", Args{"evidence": id})
		}
		seen[id] = true
	}
	return nil
}

// ProposeScore proposes a criterion's score for the proposal's entry.
type ProposeScore struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Proposal  string
	Criterion string
	To        int
	Rationale events.Text
	Evidence  []string
}

// DecideProposeScore yields ScoreChangeProposed with the published value as From.
func DecideProposeScore(r *Ranking, ed *Edition, p *Proposal, actor Actor, c ProposeScore) ([]Change, error) {
	if err := p.may(actor, actionEdit, nil); err != nil {
		return nil, err
	}
	if p.IsMethodology() {
		return nil, invalid("criterion", "methodology.no_scores", nil)
	}
	if !r.HasCriterion(c.Criterion) {
		return nil, invalid("criterion", "ranking.not_criterion", nil)
	}
	if err := checkScore("to", c.To); err != nil {
		return nil, err
	}
	if err := checkI18n("rationale", c.Rationale.Zh, c.Rationale.En, MaxLongText, true); err != nil {
		return nil, err
	}
	if err := p.checkCitations(c.Evidence); err != nil {
		return nil, err
	}
	var from *int
	if pe := ed.Entry(p.Entry); pe != nil {
		if v, ok := pe.Scores[c.Criterion]; ok {
			from = &v
		}
	}
	return one(ProposalID(p.ID), &events.ScoreChangeProposed{
		Revision: p.Revision, Criterion: c.Criterion, From: from, To: c.To,
		Rationale: c.Rationale, Evidence: slices.Clone(c.Evidence),
	}), nil
}

// ProposeAttribute proposes an attribute's tags for the proposal's entry.
type ProposeAttribute struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Proposal  string
	Attribute string
	To        []string
	Rationale events.Text
	Evidence  []string
}

// DecideProposeAttribute yields AttributeChangeProposed.
func DecideProposeAttribute(r *Ranking, ed *Edition, p *Proposal, actor Actor, c ProposeAttribute) ([]Change, error) {
	if err := p.may(actor, actionEdit, nil); err != nil {
		return nil, err
	}
	if p.IsMethodology() {
		return nil, invalid("attribute", "methodology.no_scores", nil)
	}
	def, ok := r.Attribute(c.Attribute)
	if !ok {
		return nil, invalid("attribute", "ranking.not_attribute", nil)
	}
	if err := checkTags("to", c.To); err != nil {
		return nil, err
	}
	if err := knownTags("to", def, c.To); err != nil {
		return nil, err
	}
	if err := checkI18n("rationale", c.Rationale.Zh, c.Rationale.En, MaxLongText, true); err != nil {
		return nil, err
	}
	if err := p.checkCitations(c.Evidence); err != nil {
		return nil, err
	}
	var from []string
	if pe := ed.Entry(p.Entry); pe != nil {
		from = slices.Clone(pe.Attributes[c.Attribute])
	}
	return one(ProposalID(p.ID), &events.AttributeChangeProposed{
		Revision: p.Revision, Attribute: c.Attribute, From: from, To: normTags(c.To),
		Rationale: c.Rationale, Evidence: slices.Clone(c.Evidence),
	}), nil
}

// RemoveChange drops a proposed change from a draft.
type RemoveChange struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Proposal  string
	Target    string // "score:<criterion>" or "attr:<key>"
}

// DecideRemoveChange drops a proposed change ("score:<criterion>" or "attr:<key>").
func DecideRemoveChange(p *Proposal, actor Actor, target string) ([]Change, error) {
	if err := p.may(actor, actionEdit, nil); err != nil {
		return nil, err
	}
	if !slices.Contains(p.Targets(), target) {
		return nil, invalid("target", "change.missing", Args{"change": target})
	}
	return one(ProposalID(p.ID), &events.ChangeRemoved{Revision: p.Revision, Target: target}), nil
}
