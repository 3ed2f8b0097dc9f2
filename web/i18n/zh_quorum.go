package i18n

// zhQuorum holds the Chinese words of the quorum's floor and of approvals
// that stopped counting because their voter no longer reviews.
var zhQuorum = map[string]string{
	"ranking.evidence_verification": "{field}必须开启：交叉验证要求每一条证据都经过核实。",
	"desk.quorum.revoked.one":       "%s 的赞成票不计入（审核人角色已撤销）",
	"desk.quorum.revoked.other":     "%s 的赞成票不计入（审核人角色已撤销）",
}
