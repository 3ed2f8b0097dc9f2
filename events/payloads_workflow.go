package events

// ReviewersRequested asks reviewers to review a proposal: they join its
// attention set until they vote on the current revision. Due, when set, is
// when each of them is nudged if they have not answered by then; a request
// naming a reviewer again replaces (or, empty, clears) their due date.
// Version 2 added Due: a v1 body is a v2 one without it.
type ReviewersRequested struct {
	Reviewers []string `json:"reviewers"`
	Due       string   `json:"due,omitempty"` // RFC 3339, UTC
}

// ReviewNudged records that a requested reviewer had not answered by the
// due date of their request (Due, as the request gave it) and was
// reminded; it is recorded at most once per reviewer and due date.
type ReviewNudged struct {
	Reviewer string `json:"reviewer"`
	Due      string `json:"due"`
}

// CommentAdded is a comment on a proposal: on the whole proposal (On
// empty), on one change ("score:<criterion>", "attr:<key>", "methodology")
// or on one evidence item ("evidence:<id>"); ReplyTo names the comment it
// answers, making a thread.
type CommentAdded struct {
	CommentID string `json:"comment_id"` // "c1", "c2", … unique within the proposal
	Revision  int    `json:"revision"`
	On        string `json:"on,omitempty"`
	ReplyTo   string `json:"reply_to,omitempty"`
	Body      string `json:"body"`
}

// CommentResolved closes a comment's thread.
type CommentResolved struct {
	CommentID string `json:"comment_id"`
}

// ConflictDeclared is a reviewer's own declaration of a conflict of
// interest with one entry of a ranking, or with the whole ranking (Entry
// empty). From then on their approvals of the entry's proposals do not
// count; the declaration is public.
type ConflictDeclared struct {
	User   string `json:"user"`
	Entry  string `json:"entry,omitempty"`
	Reason string `json:"reason"`
}

// EditionScheduled records a publisher's decision to publish the chosen
// proposals at a moment. SnapshotHash and the proposals' revisions are what
// the publisher approved: at the moment, the edition is published only if
// the fresh preview still gives them.
type EditionScheduled struct {
	Schedule     string          `json:"schedule"` // the schedule's id
	At           string          `json:"at"`       // RFC 3339, with the publisher's offset
	Proposals    []ScheduledPick `json:"proposals"`
	PreviewHash  string          `json:"preview_hash"`
	SnapshotHash string          `json:"snapshot_hash"`
	Note         string          `json:"note,omitempty"`
}

// ScheduledPick is one proposal of a scheduled edition at the revision the
// publisher saw.
type ScheduledPick struct {
	Proposal string `json:"proposal"`
	Revision int    `json:"revision"`
}

// EditionScheduleCanceled withdraws a scheduled edition before its moment.
type EditionScheduleCanceled struct {
	Schedule string `json:"schedule"`
	Reason   string `json:"reason,omitempty"`
}

// EditionScheduleFailed records that a scheduled edition did not publish at
// its moment, and why (Code is an error code, Detail its particulars).
type EditionScheduleFailed struct {
	Schedule string `json:"schedule"`
	Code     string `json:"code"`
	Detail   string `json:"detail,omitempty"`
}

// InboxRead marks a user's inbox read up to a stream sequence.
type InboxRead struct {
	UpTo uint64 `json:"up_to"`
}

// FeedTokenSet sets (or, with an empty Hash, revokes) the token of a user's
// private inbox feed URL; only its SHA-256 is kept.
type FeedTokenSet struct {
	Hash string `json:"hash"`
}
