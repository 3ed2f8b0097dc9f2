package events

// The payloads of what the capture worker and the scheduled re-check
// record about an evidence item's source.

// EvidenceCaptured records what an evidence item's source said when it was
// cited: the capture worker fetched SourceURL and archived the response,
// whose body hashes to SHA256 (the key of the archived WARC record). The
// hash enters the audit chain with the event, so the archived copy can be
// checked against the trail. QuoteChecked says whether the excerpt could
// be searched in the body (not in a PDF, for one), QuoteFound whether it
// was found there.
type EvidenceCaptured struct {
	EvidenceID   string `json:"evidence_id"`
	URL          string `json:"url"`          // the source URL as cited
	FinalURL     string `json:"final_url"`    // where redirects ended
	Status       int    `json:"status"`       // the HTTP status of the final response
	ContentType  string `json:"content_type"` // its Content-Type header
	Size         int64  `json:"size"`         // bytes of body, decompressed
	SHA256       string `json:"sha256"`       // hex SHA-256 of the body
	FetchedAt    string `json:"fetched_at"`   // RFC 3339, UTC, whole seconds
	QuoteFound   bool   `json:"quote_found"`
	QuoteChecked bool   `json:"quote_checked"`
}

// EvidenceCaptureFailed records that an evidence item's source could not be
// captured, and why, as a stable code ("forbidden_address", "timeout"…:
// domain.CaptureReasons lists them). The error's text stays in the logs: it
// may name addresses the public trail should not show. Attempts is how many
// fetches the worker made before it gave up (1 for a failure it does not
// retry); 0 in the events recorded before it was counted, which says
// nothing about the number. It is optional rather than a new version: no
// reader of v1 needs it, and a v1 body without it stays valid as stored.
type EvidenceCaptureFailed struct {
	EvidenceID string `json:"evidence_id"`
	URL        string `json:"url"`
	Reason     string `json:"reason"`
	At         string `json:"at"` // RFC 3339, UTC, whole seconds
	Attempts   int    `json:"attempts,omitempty"`
}

// EvidenceSourceChanged records that a scheduled re-check found an
// evidence item's captured source saying something else: its text (as
// QuoteFound reads it, not its bytes) differs from the version last
// recorded — the capture, or the previous EvidenceSourceChanged — or it
// answers again after EvidenceSourceDead. The new response is archived
// under SHA256 like a capture; QuoteFound says whether the excerpt is
// still there. Tick names the schedule's tick that found it: one result
// per item and tick.
type EvidenceSourceChanged struct {
	EvidenceID   string `json:"evidence_id"`
	URL          string `json:"url"`
	FinalURL     string `json:"final_url"`
	Status       int    `json:"status"`
	ContentType  string `json:"content_type"`
	Size         int64  `json:"size"`
	SHA256       string `json:"sha256"`     // hex SHA-256 of the new body
	CheckedAt    string `json:"checked_at"` // RFC 3339, UTC, whole seconds
	QuoteFound   bool   `json:"quote_found"`
	QuoteChecked bool   `json:"quote_checked"`
	Tick         string `json:"tick"`
}

// EvidenceSourceDead records that a scheduled re-check found an evidence
// item's captured source gone, as a stable code ("not_found", "gone",
// "unreachable", "timeout", "forbidden_address": domain.DeadReasons).
// Status is the HTTP status that said so (404, 410), 0 when none did.
type EvidenceSourceDead struct {
	EvidenceID string `json:"evidence_id"`
	URL        string `json:"url"`
	Reason     string `json:"reason"`
	Status     int    `json:"status"`
	CheckedAt  string `json:"checked_at"` // RFC 3339, UTC, whole seconds
	Tick       string `json:"tick"`
}
