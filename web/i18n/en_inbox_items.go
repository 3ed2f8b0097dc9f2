package i18n

// enInboxItems holds the English words of an inbox item that stands for
// several rows: one action on many proposals (%[1]s the actor, %[2]d how
// many proposals, %[3]s the first). An item of one row is worded by its
// inbox.kind.* message.
var enInboxItems = map[string]string{
	"inbox.group.review_requested": "%[1]s asked you to review %[2]d proposals, from %[3]s",
	"inbox.group.veto":             "%[1]s vetoed %[2]d of your proposals, from %[3]s",
	"inbox.group.comment":          "%[1]s commented on %[2]d proposals, from %[3]s",
	"inbox.group.cross_validated":  "%[1]s cross-validated %[2]d of your proposals, from %[3]s",
	"inbox.group.published":        "%[1]s published %[2]d of your proposals, from %[3]s",
	"inbox.group.returned":         "%[2]d of your proposals returned to review (%[1]s), from %[3]s",
	"inbox.group.schedule_failed":  "%[2]d of your scheduled editions did not publish (%[1]s)",
	"inbox.group.source_changed":   "Sources under your evidence on %[2]d proposals changed (%[1]s), from %[3]s",
	"inbox.group.source_dead":      "Sources under your evidence on %[2]d proposals are gone (%[1]s), from %[3]s",
	"inbox.group.review_overdue":   "Your reviews of %[2]d proposals are overdue, from %[3]s",
	"inbox.group.vendor_edition":   "An edition published by %[1]s changed %[2]d of your entries",
	"inbox.group.vendor_report":    "%[1]s accepted %[2]d readers' reports about your entries, from proposal %[3]s",
	"inbox.group.vendor_preview":   "%[1]s sent you %[2]d embargoed previews of the next edition",
}
