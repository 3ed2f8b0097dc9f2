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

// enChat words the rankings' chat webhooks.
var enChat = map[string]string{
	"chat.lang":                      "{Field} must be zh or en.",
	"chat.unchanged":                 "{Field} is already the ranking's chat webhook.",
	"label.lang":                     "the language",
	"audit.msg.chat_webhook_set":     "Set the chat webhook to {url} ({lang})",
	"audit.msg.chat_webhook_removed": "Removed the chat webhook",
	"audit.msg.chat_posted":          "Posted to the chat webhook {url} (HTTP {status})",
	"audit.msg.chat_failed":          "Gave up posting to the chat webhook {url}: {error}",
	"chat.review_requested":          "%[1]s asked %[2]s to review “%[3]s” (%[4]s): %[5]s",
	"chat.review_requested_due":      "%[1]s asked %[2]s to review “%[3]s” (%[4]s) by %[6]s: %[5]s",
	"chat.published":                 "Edition %[1]d of %[2]s is published by %[3]s: %[4]s",
	"webhooks.chat.heading":          "Chat webhook of a ranking",
	"webhooks.chat.help":             "An incoming-webhook URL (Slack or Mattermost) that hears the ranking's review requests and publications. Leave it empty to remove it.",
	"webhooks.chat.ranking":          "Ranking",
	"webhooks.chat.url":              "Incoming-webhook URL",
	"webhooks.chat.lang":             "Language of the messages",
	"webhooks.chat.submit":           "Save the chat webhook",
	"webhooks.done.chat":             "The ranking's chat webhook is saved.",
}
