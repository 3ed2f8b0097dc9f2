package site

import (
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/ui"
)

// apiStability is how solid an entry's overall rank is in the API: stable,
// or the entries it could swap with, each with the first condition
// (domain.Swap: a removed score, or a weight moved by ±5 points).
type apiStability struct {
	Stable bool          `json:"stable"`
	Swaps  []domain.Swap `json:"swaps"`
}

func apiStabilityOf(st map[string][]domain.Swap, entry string) *apiStability {
	swaps, ok := st[entry]
	if !ok {
		return nil // recorded before stability was: none to show
	}
	if swaps == nil {
		swaps = []domain.Swap{}
	}
	return &apiStability{Stable: len(swaps) == 0, Swaps: swaps}
}

// stabilityView is an entry's stability in words.
type stabilityView struct {
	Known   bool     // recorded for this edition
	Summary string   // "Stable" or "Could swap with 2 entries"
	Lines   []string // one per entry it could swap with, with the condition
}

// stabilityOf words an entry's swaps; names and crit name the entries and
// criteria in the page's language.
func stabilityOf(p ui.Page, st map[string][]domain.Swap, entry string, names, crit map[string]string) stabilityView {
	swaps, ok := st[entry]
	if !ok {
		return stabilityView{}
	}
	v := stabilityView{Known: true}
	if len(swaps) == 0 {
		v.Summary = p.T("public.stability_stable")
		return v
	}
	others := map[string]bool{}
	for _, s := range swaps {
		others[s.With] = true
	}
	v.Summary = p.T("public.stability_swaps", len(others))
	for _, s := range swaps {
		with := orSlug(names[s.With], s.With)
		c := orSlug(crit[s.Criterion], s.Criterion)
		if s.Kind == "score" {
			v.Lines = append(v.Lines, p.T("public.stability_if_score", with, orSlug(names[s.Entry], s.Entry), c))
		} else {
			v.Lines = append(v.Lines, p.T("public.stability_if_weight", with, c, signed(s.Delta)))
		}
	}
	return v
}

func orSlug(name, slug string) string {
	if name == "" {
		return slug
	}
	return name
}

func signed(d int) string {
	if d > 0 {
		return "+" + itoa(d)
	}
	return itoa(d)
}
