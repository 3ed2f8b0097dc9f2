// Package wire holds the JSON shapes that more than one part of /api/v1
// answers with, declared once beside the OpenAPI document that describes
// them (web/api/openapi.json): an edition's changes and moves appear in
// the publisher's preview (web/api) and in a published edition (web/site),
// with the same field names.
//
// The event log has its own types (events.AppliedChange): the log's schema
// is frozen by golden tests and read back for ever, while these may grow
// with the API. ChangeOf converts one to the other.
package wire

import "github.com/crossrank/crossrank/events"

// Change is one value an edition publishes (the OpenAPI schema "Change").
type Change struct {
	Proposal  string   `json:"proposal"`
	Entry     string   `json:"entry"`
	Target    string   `json:"target"` // "score:<criterion>" or "attr:<key>"
	FromScore *int     `json:"from_score,omitempty"`
	ToScore   *int     `json:"to_score,omitempty"`
	FromTags  []string `json:"from_tags,omitempty"`
	ToTags    []string `json:"to_tags,omitempty"`
	Evidence  []string `json:"evidence"` // ids; never null
}

// ChangeOf is the wire form of a change an edition applies.
func ChangeOf(c events.AppliedChange) Change {
	ev := c.Evidence
	if ev == nil {
		ev = []string{}
	}
	return Change{Proposal: c.Proposal, Entry: c.Entry, Target: c.Target, FromScore: c.FromScore, ToScore: c.ToScore,
		FromTags: c.FromTags, ToTags: c.ToTags, Evidence: ev}
}

// Move is one entry's overall rank and total before and after an edition
// (the OpenAPI schema "Move").
type Move struct {
	Entry       string `json:"entry"`
	BeforeRank  *int   `json:"before_rank"` // null: new in this edition
	AfterRank   int    `json:"after_rank"`
	BeforeTotal *int   `json:"before_total"`
	AfterTotal  int    `json:"after_total"`
}
