package events

// The report aggregate's events: a reader's report of a problem with a
// public entry, and the desk's triage of it. The reporter's contact address
// is personal data and never enters an event: it is kept in a key-value
// bucket with an expiry, where the operator can erase it.

// ReportOpened is a reader's report on a public entry (and optionally one
// criterion's score or one evidence item of it).
type ReportOpened struct {
	Ranking   string `json:"ranking"`
	Entry     string `json:"entry"`
	Criterion string `json:"criterion,omitempty"`
	Evidence  string `json:"evidence,omitempty"`
	Kind      string `json:"kind"` // wrong, outdated, missing or other
	Text      string `json:"text"`
}

// ReportFolded records the same report sent again within the folding
// window: counted on the report, never a report of its own.
type ReportFolded struct{}

// ReportAccepted records an editor's acceptance: the draft proposal it
// opened on the report's entry, which goes through review as any other.
type ReportAccepted struct {
	Proposal string `json:"proposal"`
}

// ReportDeclined records an editor's refusal, with the public reason.
type ReportDeclined struct {
	Reason string `json:"reason"`
}

// ReportMarkedDuplicate folds a report into an earlier one about the same
// problem: its outcome is that report's.
type ReportMarkedDuplicate struct {
	Of string `json:"of"`
}
