package ui

import "github.com/crossrank/crossrank/domain"

// Tier is an evidence item's provenance as pages show it: Value is the
// domain's tier, or "unknown" where none was stated (a class name and a
// test hook, never empty).
type Tier struct {
	Value string
	Label string
}

// TierOf words tier t in the page's language.
func TierOf(p Page, t domain.Tier) Tier {
	if !t.Valid() {
		return Tier{Value: "unknown", Label: p.T("tier.unknown")}
	}
	return Tier{Value: string(t), Label: p.T("tier." + string(t))}
}
