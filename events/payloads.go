package events

// Text is a string in both interface languages.
type Text struct {
	Zh string `json:"zh"`
	En string `json:"en"`
}

// In returns the text in lang ("zh" or "en"), falling back to the other one.
func (t Text) In(lang string) string {
	if lang == "zh" && t.Zh != "" || t.En == "" {
		return t.Zh
	}
	return t.En
}

// Category is one of a ranking's groups of entries.
type Category struct {
	Slug        string `json:"slug"`
	Name        Text   `json:"name"`
	Description Text   `json:"description"`
}

// Criterion is one scored dimension with its integer weight (weights sum to 100).
type Criterion struct {
	Slug        string `json:"slug"`
	Name        Text   `json:"name"`
	Description Text   `json:"description"`
	Weight      int    `json:"weight"`
}

// AttributeDef declares an attribute entries may carry; values are lists of tags.
type AttributeDef struct {
	Key    string           `json:"key"`
	Name   Text             `json:"name"`
	Values []AttributeValue `json:"values,omitempty"` // known tags with labels; empty means free text
}

// AttributeValue is a known tag of an attribute with its label.
type AttributeValue struct {
	Value string `json:"value"`
	Label Text   `json:"label"`
}

// QuorumPolicy sets how a proposal becomes cross-validated.
type QuorumPolicy struct {
	MinApprovals            int  `json:"min_approvals"`
	RequireEvidenceVerified bool `json:"require_evidence_verified"`
}

// Scenario is a named weight profile (weights sum to 100).
type Scenario struct {
	Slug        string         `json:"slug"`
	Name        Text           `json:"name"`
	Description Text           `json:"description"`
	Weights     map[string]int `json:"weights"`
}

// Filter is one of the buyer's questions; each option may require attributes.
type Filter struct {
	Key      string         `json:"key"`
	Question Text           `json:"question"`
	Options  []FilterOption `json:"options"`
}

// FilterOption is one answer to a Filter. An entry meets it when, for every
// requirement, its attribute holds at least one of the listed values.
type FilterOption struct {
	Value    string        `json:"value"`
	Label    Text          `json:"label"`
	Requires []Requirement `json:"requires,omitempty"`
}

// Requirement asks that an entry's attribute holds any of AnyOf.
type Requirement struct {
	Attribute string   `json:"attribute"`
	AnyOf     []string `json:"any_of"`
	Reason    Text     `json:"reason"` // shown when an entry is hidden by it
}

// RankingDefined creates a ranking.
type RankingDefined struct {
	Slug        string         `json:"slug"`
	Title       Text           `json:"title"`
	Description Text           `json:"description"`
	Categories  []Category     `json:"categories"`
	Criteria    []Criterion    `json:"criteria"`
	Attributes  []AttributeDef `json:"attributes"`
	Quorum      QuorumPolicy   `json:"quorum"`
	// Illustrative marks a ranking whose scores illustrate the tool rather
	// than judge the market (the demo). It came after v1 and is omitted when
	// false, so every RankingDefined stored before it decodes, and hashes,
	// as it always did.
	Illustrative bool `json:"illustrative,omitempty"`
}

// WeightsSet replaces the criteria weights of a ranking.
type WeightsSet struct {
	Weights map[string]int `json:"weights"`
}

// ScenariosSet replaces a ranking's scenarios and needs-filters.
type ScenariosSet struct {
	Scenarios []Scenario `json:"scenarios"`
	Filters   []Filter   `json:"filters"`
}

// EntryCreated registers the thing being ranked. It is not public until an
// edition publishes a proposal for it.
type EntryCreated struct {
	Ranking     string `json:"ranking"`
	Slug        string `json:"slug"`
	Name        Text   `json:"name"`
	Category    string `json:"category"`
	Website     string `json:"website,omitempty"`
	Description Text   `json:"description"`
	Proposal    string `json:"proposal"`
}

// ProposalOpened starts a proposal (revision 1, draft) for one entry.
type ProposalOpened struct {
	Ranking  string `json:"ranking"`
	Entry    string `json:"entry"` // entry slug
	NewEntry bool   `json:"new_entry"`
	Title    string `json:"title"`
	Summary  string `json:"summary,omitempty"`
	// A methodology proposal changes the ranking's methodology instead of
	// an entry (Entry is empty); NewRanking: it defines the ranking.
	Methodology bool `json:"methodology,omitempty"`
	NewRanking  bool `json:"new_ranking,omitempty"`
	// DependsOn names the new-ranking proposal that defines the ranking an
	// entry proposal belongs to, while that ranking is not yet published.
	DependsOn string `json:"depends_on,omitempty"`
	// Proposed is a methodology proposal's methodology when it is proposed
	// from the start: the payload a separate MethodologyProposed would hold,
	// carried here so that opening and proposing are one event, not an
	// atomic batch of two (see Transition). Omitted when nil: a proposal
	// opened before, whose MethodologyProposed followed as an event of its
	// own, keeps its bytes.
	Proposed *MethodologyProposed `json:"proposed,omitempty"`
}

// EvidenceAdded attaches a source to the current revision.
type EvidenceAdded struct {
	EvidenceID string `json:"evidence_id"` // "e1", "e2", … unique within the proposal
	Revision   int    `json:"revision"`
	// Claim is Text from evidence_added.v3 on; older versions are read
	// through TextFrom.
	Claim        Text   `json:"claim"`
	SourceURL    string `json:"source_url,omitempty"`
	SourceName   string `json:"source_name,omitempty"`
	Section      string `json:"section,omitempty"`
	Excerpt      string `json:"excerpt"`
	ObservedOn   string `json:"observed_on"`              // YYYY-MM-DD
	ValidForDays int    `json:"valid_for_days,omitempty"` // 0: does not expire
	// Tier is where the claim comes from: "vendor", "third_party" or "own"
	// (see domain.Tier); "" where the editor did not say, as in every
	// event stored before tiers existed, which keep their bytes and hashes.
	Tier string `json:"tier,omitempty"`
}

// EvidenceRemoved drops an evidence item from the current revision.
type EvidenceRemoved struct {
	EvidenceID string `json:"evidence_id"`
	Revision   int    `json:"revision"`
}

// ScoreChangeProposed proposes a criterion's score; a later one for the same
// criterion replaces it. From is the published value (nil: none yet).
type ScoreChangeProposed struct {
	Revision  int      `json:"revision"`
	Criterion string   `json:"criterion"`
	From      *int     `json:"from"`
	To        int      `json:"to"`
	Rationale Text     `json:"rationale"` // a string before v2 (TextFrom)
	Evidence  []string `json:"evidence"`
}

// AttributeChangeProposed proposes an attribute's tags; a later one for the
// same attribute replaces it.
type AttributeChangeProposed struct {
	Revision  int      `json:"revision"`
	Attribute string   `json:"attribute"`
	From      []string `json:"from"`
	To        []string `json:"to"`
	Rationale Text     `json:"rationale"` // a string before v2 (TextFrom)
	Evidence  []string `json:"evidence"`
}

// ChangeRemoved drops a proposed score ("score:<criterion>") or attribute
// ("attr:<key>") change from the current revision.
type ChangeRemoved struct {
	Revision int    `json:"revision"`
	Target   string `json:"target"`
}

// ProposalSubmitted sends the current revision to review.
type ProposalSubmitted struct {
	Revision int `json:"revision"`
}

// Rebase records a new baseline for a change when a proposal is revised.
type Rebase struct {
	Target string   `json:"target"` // "score:<criterion>" or "attr:<key>"
	Score  *int     `json:"score,omitempty"`
	Tags   []string `json:"tags,omitempty"`
	// Edition is a methodology proposal's new base (Target "methodology").
	Edition *int `json:"edition,omitempty"`
}

// ProposalRevised opens a new revision in draft; approvals of earlier
// revisions become outdated.
type ProposalRevised struct {
	Revision int      `json:"revision"`
	Note     string   `json:"note,omitempty"`
	Rebase   []Rebase `json:"rebase,omitempty"`
}

// Verdicts of a vote.
const (
	Approve = "approve"
	Reject  = "reject"
)

// VoteCast records a reviewer's verdict on a revision; it replaces the
// reviewer's earlier vote.
type VoteCast struct {
	Revision         int      `json:"revision"`
	Verdict          string   `json:"verdict"`
	VerifiedEvidence []string `json:"verified_evidence"`
	Comment          string   `json:"comment,omitempty"`
	// Transition is what the vote did to the proposal's status, if anything:
	// it completed the quorum or (a veto) broke it.
	Transition
}

// VetoDismissed lifts a reviewer's reject by a publisher, with a reason.
type VetoDismissed struct {
	Voter  string `json:"voter"`
	Reason string `json:"reason"`
	// Transition is what lifting the veto did to the proposal's status.
	Transition
}

// Transition is a change of a proposal's status carried by the event that
// caused it (a vote, a dismissed veto), so that the command appends one
// event rather than an atomic batch of two: on an R1 file stream the
// server stages every atomic batch in a file store of its own, which makes
// a two-event command cost several one-event appends (BENCHMARKS.md, "One
// event per aggregate"). At most one field is set; each holds exactly the
// payload the separate event held, and reads the same. Both are omitted
// when nil, so an event without a transition, and every event stored
// before transitions were folded, keeps its bytes and its audit hash; such
// older histories carry the transition as the separate
// ProposalCrossValidated or ProposalReturnedToReview event that followed,
// and every reader treats the two forms alike.
//
// Carrying a transition changed what a vote means, so the events that may
// carry one are a new version (vote_cast.v2, veto_dismissed.v2; likewise
// opened.v2 with Proposed and password_changed.v2 with RevokedTokens): a
// Crossrank that predates them stops at the unknown type instead of
// reading the vote without its transition. The v1 types are upcast as
// they are (their bodies are v2 bodies without the field).
type Transition struct {
	CrossValidated   *ProposalCrossValidated   `json:"cross_validated,omitempty"`
	ReturnedToReview *ProposalReturnedToReview `json:"returned_to_review,omitempty"`
}

// ProposalCrossValidated marks that the quorum was met on a revision.
type ProposalCrossValidated struct {
	Revision  int      `json:"revision"`
	Approvers []string `json:"approvers"`
}

// ProposalReturnedToReview sends a cross-validated proposal back because an
// edition changed a value it used as baseline.
type ProposalReturnedToReview struct {
	Edition int      `json:"edition"`
	Targets []string `json:"targets"`
	Reason  string   `json:"reason"`
}

// ProposalRejected closes a proposal for good.
type ProposalRejected struct {
	Reason string `json:"reason"`
}

// ProposalWithdrawn closes a proposal by its author.
type ProposalWithdrawn struct {
	Reason string `json:"reason,omitempty"`
}

// ProposalPublished marks a proposal as released in an edition. It is
// appended in the same atomic batch as EditionPublished, with an expectation
// on the proposal, so a proposal revised during publishing is never released.
type ProposalPublished struct {
	Edition  int `json:"edition"`
	Revision int `json:"revision"`
}

// AppliedChange is one change an edition made to the published ranking.
type AppliedChange struct {
	Proposal  string   `json:"proposal"`
	Entry     string   `json:"entry"`
	Target    string   `json:"target"` // "score:<criterion>" or "attr:<key>"
	FromScore *int     `json:"from_score,omitempty"`
	ToScore   *int     `json:"to_score,omitempty"`
	FromTags  []string `json:"from_tags,omitempty"`
	ToTags    []string `json:"to_tags,omitempty"`
	Evidence  []string `json:"evidence"`
}

// PublishedEntry is an entry an edition makes public for the first time.
type PublishedEntry struct {
	Slug     string `json:"slug"`
	Name     Text   `json:"name"`
	Category string `json:"category"`
	Website  string `json:"website,omitempty"`
	Proposal string `json:"proposal"`
}

// EditionPublished releases proposals as the next edition of a ranking.
// SnapshotHash is the SHA-256 of the canonical ranking after the edition;
// AuditHead is the audit chain head after stream sequence AuditSeq.
type EditionPublished struct {
	Ranking      string           `json:"ranking"`
	Number       int              `json:"number"`
	Proposals    []string         `json:"proposals"`
	NewEntries   []PublishedEntry `json:"new_entries,omitempty"`
	Changes      []AppliedChange  `json:"changes"`
	PreviewHash  string           `json:"preview_hash"`
	SnapshotHash string           `json:"snapshot_hash"`
	AuditHead    string           `json:"audit_head"`
	AuditSeq     uint64           `json:"audit_seq"`
	Note         string           `json:"note,omitempty"`
	// Methodology is the id of the methodology proposal the edition
	// publishes, if any (its MethodologyPublished precedes this event).
	Methodology string `json:"methodology,omitempty"`
	// Schedule is the id of the scheduled edition this publishes, if any.
	Schedule string `json:"schedule,omitempty"`
	// Size is set when the edition's lists were too large for one
	// message: Proposals, NewEntries and Changes are then empty here and
	// held, in order, by the Size.Parts EditionPartRecorded events just
	// before this one (SplitEdition, JoinEdition).
	Size *EditionSize `json:"size,omitempty"`
}
