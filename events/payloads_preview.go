package events

// The preview aggregate's events: a publisher's embargoed preview of chosen
// cross-validated proposals, for people without accounts. The link's token
// never enters an event: only its SHA-256, which the page looks the
// preview up by. An opening records no viewer address, nothing about the
// viewer at all.

// PreviewCreated records a new embargoed preview.
type PreviewCreated struct {
	Ranking   string   `json:"ranking"`
	Proposals []string `json:"proposals"` // sorted ids
	// Entries are the entries the proposals change or add, sorted: the
	// contact timeline of each lists the preview.
	Entries   []string `json:"entries"`
	ExpiresAt string   `json:"expires_at"` // RFC 3339, UTC
	Note      string   `json:"note,omitempty"`
	// Vendors are the users the preview was sent to, sorted; none when the
	// publisher passes the link on by other means.
	Vendors   []string `json:"vendors,omitempty"`
	TokenHash string   `json:"token_hash"` // hex SHA-256 of the link's token
}

// PreviewRevoked records that the preview's link stops working.
type PreviewRevoked struct{}

// PreviewOpened records that someone opened the link. Openings fold: at
// most one event per preview per minute (domain.PreviewOpenFold), so a
// reload storm writes one event a minute, not thousands.
type PreviewOpened struct{}
