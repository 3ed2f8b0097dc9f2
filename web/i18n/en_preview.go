package i18n

// enPreview holds embargoed previews: the link's page, the publish page's
// form and list, their errors and audit lines.
var enPreview = map[string]string{
	// Errors and field names.
	"preview.missing":             "There is no such preview.",
	"preview.revoked":             "This preview is revoked already.",
	"preview.closed":              "There is no such preview: the link is unknown, revoked or expired.",
	"preview.exists":              "{Field} names a preview that exists already.",
	"preview.no_proposals":        "{Field}: choose at least one cross-validated proposal.",
	"preview.not_cross_validated": "{Field}: {proposal} is not a cross-validated proposal of this ranking.",
	"preview.no_edition":          "{Field}: the chosen proposals do not make an edition together (two change the same value, or a value they change was published since).",
	"preview.bad_expiry":          "{Field} must be a time (RFC 3339) after now and within {days} days.",
	"preview.too_many_vendors":    "{Field}: a preview is sent to at most {max} users.",
	"preview.unknown_vendor":      "{Field}: there is no user {user}.",
	"label.expires_at":            "expiry",
	"label.vendors":               "recipients",
	"label.token_hash":            "token hash",

	// The link's page.
	"preview.title":        "Embargoed preview · %s",
	"preview.banner":       "Embargoed preview — not published — until %s. Do not share this link.",
	"preview.edition":      "Would be edition %d",
	"preview.note":         "Note from the publisher",
	"preview.changed":      "Changed entries",
	"preview.evidence":     "Evidence",
	"preview.more":         "and %d more changes",
	"preview.more_entries": "and %d more new entries",
	"preview.utc":          "%s %s UTC",
	"preview.ranking":      "The ranking after this edition",
	"preview.no_changes":   "The chosen proposals change no entry.",

	// The publish page.
	"preview.desk_title":      "Embargoed previews",
	"preview.desk_intro":      "Send a read-only link to people without an account: it shows the chosen proposals as the next edition would, until it expires or you revoke it. The link is shown once.",
	"preview.create":          "Create a preview link of the chosen proposals",
	"preview.expires_label":   "Expires at",
	"preview.note_label":      "Note (optional)",
	"preview.vendors_label":   "Send to users (optional, comma-separated)",
	"preview.created":         "Preview created. Copy the link now — it is not shown again:",
	"preview.none":            "No previews yet.",
	"preview.col_id":          "Preview",
	"preview.col_status":      "Status",
	"preview.col_expires":     "Expires",
	"preview.col_openings":    "Openings",
	"preview.col_proposals":   "Proposals",
	"preview.col_actions":     "Actions",
	"preview.revoke":          "Revoke",
	"preview.status.active":   "active",
	"preview.status.expired":  "expired",
	"preview.status.revoked":  "revoked",
	"preview.copy_hint":       "Select the link and copy it (Ctrl+C or ⌘C). It opens without an account until it expires or you revoke it.",
	"preview.already":         "This form was sent already: its link was shown the first time and is not shown again. If it was lost, revoke that preview and create another.",
	"preview.back":            "Back to the publish page",
	"preview.shown_of":        "The newest %d of %d previews; the API lists them all.",
	"preview.covers":          "The link shows the %d chosen proposals as the next edition would.",
	"preview.choose_first":    "Choose cross-validated proposals above to create a preview of them.",
	"preview.too_many_chosen": "%d proposals are chosen: the form previews at most %d (it lists each one). Choose fewer, or create the preview through the API.",

	// The audit trail.
	"audit.msg.preview_created": "Embargoed preview of {proposals} proposals created, until {expires_at}",
	"audit.msg.preview_revoked": "Embargoed preview revoked",
	"audit.msg.preview_opened":  "Embargoed preview opened",
}
