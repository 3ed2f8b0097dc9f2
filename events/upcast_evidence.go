package events

import (
	"encoding/json"
	"strings"
)

// evidenceAddedV1 is the first shape of EvidenceAdded: one "source" field held
// either a URL or a document name, and evidence never expired.
type evidenceAddedV1 struct {
	EvidenceID string `json:"evidence_id"`
	Revision   int    `json:"revision"`
	Claim      string `json:"claim"`
	Source     string `json:"source"`
	Excerpt    string `json:"excerpt"`
	ObservedOn string `json:"observed_on"`
}

// evidenceAddedV2 is EvidenceAdded before its claim became Text.
type evidenceAddedV2 struct {
	EvidenceID string `json:"evidence_id"`
	Revision   int    `json:"revision"`
	Claim      string `json:"claim"`
	SourceURL  string `json:"source_url,omitempty"`
	SourceName string `json:"source_name,omitempty"`
	Excerpt    string `json:"excerpt"`
	ObservedOn string `json:"observed_on"`
}

func upcastEvidenceV1(old json.RawMessage) (json.RawMessage, error) {
	var v1 evidenceAddedV1
	if err := json.Unmarshal(old, &v1); err != nil {
		return nil, err
	}
	v2 := evidenceAddedV2{
		EvidenceID: v1.EvidenceID, Revision: v1.Revision, Claim: v1.Claim,
		Excerpt: v1.Excerpt, ObservedOn: v1.ObservedOn,
	}
	if strings.HasPrefix(v1.Source, "http://") || strings.HasPrefix(v1.Source, "https://") {
		v2.SourceURL = v1.Source
	} else {
		v2.SourceName = v1.Source
	}
	return json.Marshal(v2)
}
