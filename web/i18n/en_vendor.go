package i18n

// enVendor holds vendors and their right of reply: the vendor role and
// its entries, statements on the entry page and the desk, the vendor's
// inbox rows and the public contact timeline.
var enVendor = map[string]string{
	// Errors and field names.
	"vendor.scope":              "A vendor acts on its own entries only.",
	"vendor.entries_required":   "{Field}: a vendor account needs its entries, as ranking/entry.",
	"vendor.too_many_entries":   "{Field} may name at most {limit} entries.",
	"vendor.bad_entry":          "{Field}: \"{entry}\" is not ranking/entry.",
	"vendor.entries_not_vendor": "{Field}: only a vendor account has entries.",
	"vendor.alone":              "{Field}: the vendor role is held alone.",
	"vendor.tier":               "{Field}: a vendor's evidence is always tier vendor.",
	"reply.missing":             "There is no such statement.",
	"reply.hidden":              "This statement is hidden already.",
	"reply.text_required":       "{Field}: write the statement in English, Chinese or both.",
	"label.entries":             "entries",
	"label.text_en":             "statement (English)",
	"label.text_zh":             "statement (Chinese)",
	"role.vendor":               "Vendor",
	"users.entries":             "Vendor's entries (ranking/entry, comma-separated; vendor role only)",

	// The public entry page.
	"reply.title":     "The vendor's statements",
	"reply.none":      "The vendor has made no statement about this entry.",
	"reply.label":     "In %s's own words, %s — not the editors' assessment; it moves no rank",
	"reply.hidden_by": "Hidden by the editors: %s",

	// The desk.
	"reply.desk_title":   "Statements about %s",
	"reply.desk_intro":   "A statement is shown on the public entry page as the vendor's own words, with its date. It never changes a score or a rank: to change one, open a proposal with your evidence.",
	"reply.criterion":    "About which score (optional)",
	"reply.whole_entry":  "The whole entry",
	"reply.text_en":      "Statement in English",
	"reply.text_zh":      "Statement in Chinese (简体中文)",
	"reply.send":         "Publish the statement",
	"reply.hide_reason":  "Public reason for hiding it",
	"reply.hide":         "Hide the statement",
	"reply.desk_link":    "Statements",
	"reply.by":           "By %s, %s",
	"reply.desk_none":    "No statement yet.",
	"reply.new_proposal": "Propose a change with evidence",

	// The vendor's inbox.
	"inbox.kind.vendor_edition":       "An edition published by %[1]s changed your entry",
	"inbox.kind.vendor_report":        "%s accepted a reader's report about your entry as proposal %s",
	"inbox.kind.vendor_preview":       "%[1]s sent you an embargoed preview of the next edition; the link comes from them and is valid until the date shown",
	"lists.inbox.kind.vendor_preview": "Embargoed previews sent to you",
	"lists.inbox.kind.vendor_edition": "Editions changing your entries",
	"lists.inbox.kind.vendor_report":  "Reports about your entries",

	// The contact timeline: one sentence per kind, given the vendor's
	// name, the subject (a statement or a proposal) and the detail.
	"contact.link":                    "Contact with the vendor: the timeline",
	"contact.title":                   "Contact with the vendor",
	"contact.intro":                   "Everything between the editors and the vendor about this entry, oldest first: its invitation, its statements, the evidence it submitted and what became of it.",
	"contact.none":                    "No contact with a vendor about this entry yet.",
	"contact.reason":                  "— reason: %s",
	"contact.kind.vendor_invited":     "%[1]s was invited as the vendor of this entry",
	"contact.kind.reply_written":      "%[1]s wrote a statement",
	"contact.kind.reply_hidden":       "The editors hid a statement of %[1]s",
	"contact.kind.evidence_submitted": "%[1]s submitted evidence for review (proposal %[2]s)",
	"contact.kind.proposal_published": "Proposal %[2]s of %[1]s was published in edition %[3]s",
	"contact.kind.proposal_rejected":  "Proposal %[2]s of %[1]s was rejected",
	"contact.kind.proposal_withdrawn": "%[1]s withdrew proposal %[2]s",
	"contact.kind.preview_sent":       "The editors sent %[1]s an embargoed preview of the next edition (%[2]s), until %[3]s",
	"contact.kind.preview_opened":     "The embargoed preview %[2]s was opened",

	// The audit trail.
	"audit.msg.vendor_entries_set": "Scoped vendor {user} to {entries}",
	"audit.msg.reply_written":      "Wrote a statement {criterion}",
	"audit.msg.reply_hidden":       "Hid a statement: {reason}",
}
