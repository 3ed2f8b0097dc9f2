package events

// Vendors and their right of reply. A vendor is an account scoped to the
// entries that are its own (VendorEntriesSet, on the user aggregate); its
// statements about them are aggregates of their own (kind "reply"), shown
// beside the entry as its own words. A statement never moves a rank: no
// edition, snapshot or hash reads these events.

// VendorEntriesSet scopes a vendor account to its entries, each
// "ranking/entry". It follows the account's UserInvited or UserRegistered
// in the same atomic batch.
type VendorEntriesSet struct {
	Entries []string `json:"entries"`
}

// ReplyWritten is a vendor's statement about one of its entries (and
// optionally one criterion's score), in either or both languages. Written
// again, it replaces the earlier text of the same statement, which the
// contact timeline keeps.
type ReplyWritten struct {
	Ranking   string `json:"ranking"`
	Entry     string `json:"entry"`
	Criterion string `json:"criterion,omitempty"`
	TextEn    string `json:"text_en,omitempty"`
	TextZh    string `json:"text_zh,omitempty"`
}

// ReplyHidden is the editors' hiding of a statement, with the public
// reason shown in its place.
type ReplyHidden struct {
	Reason string `json:"reason"`
}
