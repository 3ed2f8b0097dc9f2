package i18n

// enLists holds the English words of the desk's paged lists: the inbox's
// filter and the pages of the inbox and the audit trail.
var enLists = map[string]string{
	"lists.inbox.kind":                  "Show",
	"lists.inbox.kind.all":              "Everything",
	"lists.inbox.kind.review_requested": "Reviews asked of me",
	"lists.inbox.kind.comment":          "Comments",
	"lists.inbox.kind.veto":             "Vetoes",
	"lists.inbox.kind.returned":         "Returned to review",
	"lists.inbox.kind.cross_validated":  "Cross-validated",
	"lists.inbox.kind.published":        "Published",
	"lists.inbox.kind.schedule_failed":  "Scheduled editions that failed",
	"lists.inbox.kind.source_changed":   "Sources changed",
	"lists.inbox.kind.source_dead":      "Sources gone",
	"lists.apply":                       "Apply",
	"lists.newer":                       "%d newer since this list was opened: show the latest",
	"lists.inbox.pages":                 "the inbox",
	"lists.audit.pages":                 "the audit trail",
	"label.kind":                        "kind",
	"label.upto":                        "upto",
	"field.inbox_kind":                  "{Field} is not a kind of inbox item: \"{value}\".",
}
