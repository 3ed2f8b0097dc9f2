package i18n

// zh is every message in Simplified Chinese (简体中文), by key, in eleven parts: zh_shell.go, zh_proposals.go, zh_audit_users.go, zh_site.go, zh_errors.go, zh_methodology.go, zh_provenance.go, zh_workflow.go, zh_captures.go, zh_quorum.go, zh_review.go.
// The catalog test checks that zh has exactly the keys of en and
// that no key is in two parts.
var zh = join(zhShell, zhProposals, zhAuditUsers, zhSite, zhErrors, zhMethodology, zhProvenance, zhWorkflow, zhCaptures, zhQuorum, zhReview, zhAccounts, zhPaging, zhEditionSize, zhImport)
