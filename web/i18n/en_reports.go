package i18n

// enReports holds readers' reports: the form on the entry page, the desk's
// triage queue and the public corrections log.
var enReports = map[string]string{
	// Errors and field names.
	"report.missing":           "There is no such report.",
	"report.closed":            "This report has been triaged already.",
	"report.not_public":        "There is no such entry on the public site.",
	"report.bad_kind":          "{Field} must be one of: wrong, outdated, missing, other.",
	"report.unknown_criterion": "{Field} is not a criterion of this ranking.",
	"report.bad_duplicate":     "{Field} must name another report of the same ranking.",
	"report.too_many":          "You have sent many reports. Wait a little and try again.",
	"report.too_large":         "The report is larger than the limit of {limit}.",
	"field.report_status":      "{Field} must be open, accepted, declined or duplicate.",
	"label.text":               "text",
	"label.contact":            "contact address",
	"label.of":                 "original report",

	// The form on the entry page.
	"report.title":          "Report a problem",
	"report.intro":          "Something wrong, outdated or missing on this entry? Tell the editors. Reports and their outcomes are public; your contact address is not, and is deleted after 180 days.",
	"report.kind":           "What is the problem?",
	"report.kind.wrong":     "Something is wrong",
	"report.kind.outdated":  "Something is outdated",
	"report.kind.missing":   "Something is missing",
	"report.kind.other":     "Something else",
	"report.criterion":      "About which score (optional)",
	"report.criterion.none": "The whole entry",
	"report.evidence":       "About which evidence item (optional)",
	"report.text":           "What should the editors know? Name your source.",
	"report.contact":        "Your email, if the editors may ask you (optional, never published)",
	"report.honeypot":       "Leave this field empty",
	"report.send":           "Send the report",
	"report.thanks":         "Thank you: your report is in the editors' queue. Its outcome will appear in the corrections log.",

	// The desk's triage queue.
	"reports.desk_title":       "Readers' reports",
	"nav.reports":              "Reports",
	"reports.filter_ranking":   "Ranking",
	"reports.filter_status":    "Status",
	"reports.filter_any":       "Any",
	"reports.filter":           "Filter",
	"reports.none":             "No reports match.",
	"reports.entry":            "Entry",
	"reports.kind":             "Kind",
	"reports.text":             "Report",
	"reports.status":           "Status",
	"reports.folded":           "sent %d more times",
	"reports.accept":           "Accept: open a draft proposal",
	"reports.decline":          "Decline",
	"reports.reason":           "Public reason",
	"reports.duplicate":        "Mark duplicate",
	"reports.duplicate_of":     "Report id it duplicates",
	"reports.status.open":      "open",
	"reports.status.accepted":  "accepted",
	"reports.status.declined":  "declined",
	"reports.status.duplicate": "duplicate",

	// The public corrections log.
	"corrections.title":        "Corrections log",
	"corrections.intro":        "Every report readers sent about this ranking that the editors have decided, newest first: accepted reports become proposals that pass the same review as any change; declined ones say why.",
	"corrections.none":         "No report has been decided yet.",
	"corrections.accepted":     "Accepted as proposal %s",
	"corrections.published_in": "published in edition %d",
	"corrections.unpublished":  "not yet published",
	"corrections.declined":     "Declined: %s",
	"corrections.duplicate":    "Duplicate of %s",
	"corrections.link":         "Corrections log",

	// The audit trail's lines of reports.
	"audit.msg.report_opened":    "A reader reported a problem",
	"audit.msg.report_folded":    "The same report was sent again",
	"audit.msg.report_accepted":  "Accepted the report as proposal {proposal}",
	"audit.msg.report_declined":  "Declined the report: {reason}",
	"audit.msg.report_duplicate": "Marked the report a duplicate of {of}",
}
