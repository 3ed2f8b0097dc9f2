package i18n

// en is every message in English, by key, in eleven parts: en_shell.go, en_proposals.go, en_audit_users.go, en_site.go, en_errors.go, en_methodology.go, en_provenance.go, en_workflow.go, en_captures.go, en_quorum.go, en_review.go.
// The catalog test checks that en has exactly the keys of zh and
// that no key is in two parts.
var en = join(enShell, enProposals, enAuditUsers, enSite, enErrors, enMethodology, enProvenance, enWorkflow, enCaptures, enQuorum, enReview, enAccounts, enPaging, enEditionSize, enImport)
