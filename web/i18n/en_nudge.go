package i18n

// enNudge holds the due dates of review requests, the nudge at a due date
// and the rankings' chat webhooks.
var enNudge = map[string]string{
	// Errors and field names.
	"due.past":    "{Field} must be in the future.",
	"due.too_far": "{Field} must be within a year.",
	"due.format":  "{Field} must be an RFC 3339 time like 2026-12-05T17:00:00+08:00, or a date like 2026-12-05.",
	"label.due":   "the due date",

	// The inbox and the audit trail.
	"inbox.kind.review_overdue":       "Your review of proposal %[2]s is overdue",
	"lists.inbox.kind.review_overdue": "Overdue reviews",
	"audit.msg.review_nudged":         "Reminded {reviewer} of a review due {due}",

	// The request form and the proposal page.
	"desk.reviewers.due":      "Due (optional)",
	"desk.reviewers.due_zone": "Time zone of the due date",
	"desk.reviewers.due_of":   "%s (due %s)",
	"desk.reviewers.overdue":  "%s (overdue since %s)",

	// The dashboard.
	"desk.queue.overdue": "Overdue: %s",
}
