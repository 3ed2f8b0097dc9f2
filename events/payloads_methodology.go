package events

// Methodology is everything that decides a ranking's order and how it is
// read: what a methodology proposal proposes, whole, and what an edition
// publishes. A ranking's slug is not part of it: it names the ranking and
// never changes.
type Methodology struct {
	Title       Text           `json:"title"`
	Description Text           `json:"description"`
	Categories  []Category     `json:"categories"`
	Criteria    []Criterion    `json:"criteria"`
	Attributes  []AttributeDef `json:"attributes"`
	Scenarios   []Scenario     `json:"scenarios"`
	Filters     []Filter       `json:"filters"`
	Quorum      QuorumPolicy   `json:"quorum"`
	// License is the SPDX identifier the published data is offered under
	// ("" when not stated).
	License string `json:"license,omitempty"`
	// Illustrative marks scores that illustrate the tool rather than judge
	// the market; the public pages say so.
	Illustrative bool `json:"illustrative,omitempty"`
}

// MethodologyProposed sets the methodology a proposal proposes for its
// ranking, replacing any earlier one of the revision. Base is the edition
// whose methodology it changes (0: the ranking's first methodology, or one
// defined before methodology was reviewed); Rationale says why, in place of
// the evidence a score change cites.
type MethodologyProposed struct {
	Revision    int         `json:"revision"`
	Methodology Methodology `json:"methodology"`
	Base        int         `json:"base"`
	Rationale   Text        `json:"rationale"` // a string before v2 (TextFrom)
}

// MethodologyChange is one difference between two methodologies, as the
// changelog and the methodology history show it: Kind says what changed
// (for example "weight", "criterion_added", "criterion_retired"), Target
// which item, From and To its old and new value where it has one.
type MethodologyChange struct {
	Kind   string `json:"kind"`
	Target string `json:"target,omitempty"`
	From   string `json:"from,omitempty"`
	To     string `json:"to,omitempty"`
}

// MethodologyPublished is the ranking's side of an edition that publishes a
// methodology proposal: the new methodology, whole, and what changed. It is
// appended in the same atomic batch as the EditionPublished, before it.
type MethodologyPublished struct {
	Edition     int                 `json:"edition"`
	Proposal    string              `json:"proposal"`
	Slug        string              `json:"slug"`
	Methodology Methodology         `json:"methodology"`
	Changes     []MethodologyChange `json:"changes"`
}
