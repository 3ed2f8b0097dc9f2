package i18n

// enQuorum holds the English words of the quorum's floor and of approvals
// that stopped counting because their voter no longer reviews.
var enQuorum = map[string]string{
	"ranking.evidence_verification": "{Field} must stay on: cross-validation verifies every evidence item.",
	"desk.quorum.revoked.one":       "the approval by %s does not count (reviewer role revoked)",
	"desk.quorum.revoked.other":     "the approvals by %s do not count (reviewer role revoked)",
}
