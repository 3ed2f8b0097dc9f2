package bundle_test

import (
	"encoding/json"
	"testing"

	"github.com/crossrank/crossrank/events"
)

// evidenceAddedV2 is evidence_added.v2's body: the claim one string.
type evidenceAddedV2 struct {
	EvidenceID string `json:"evidence_id"`
	Revision   int    `json:"revision"`
	Claim      string `json:"claim"`
	SourceURL  string `json:"source_url,omitempty"`
	SourceName string `json:"source_name,omitempty"`
	Excerpt    string `json:"excerpt"`
	ObservedOn string `json:"observed_on"`
}

// storedAsV2 returns e, an EvidenceAdded with an English claim, as a
// Crossrank before bilingual claims (evidence_added.v3) stored it: the
// vectors are bundles of editions published then, and must read, and
// verify, exactly as they always did.
func storedAsV2(t *testing.T, e events.Event) events.Event {
	t.Helper()
	d := e.Data.(*events.EvidenceAdded)
	raw, err := json.Marshal(evidenceAddedV2{EvidenceID: d.EvidenceID, Revision: d.Revision, Claim: d.Claim.En,
		SourceURL: d.SourceURL, SourceName: d.SourceName, Excerpt: d.Excerpt, ObservedOn: d.ObservedOn})
	if err != nil {
		t.Fatal(err)
	}
	e.StoredType, e.Raw = "crossrank.proposal.evidence_added.v2", raw
	return e
}
