package site

import (
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/ui"
)

// apiStability is how solid an entry's overall rank is in the API: stable,
// or how many other entries it could change places with, and the
// conditions for the nearest of them (domain.EntryStability: a removed
// score, or a weight moved by ±5 points).
type apiStability struct {
	Stable    bool          `json:"stable"`
	Others    int           `json:"others"`
	Swaps     []domain.Swap `json:"swaps,omitempty"` // in the entry's own answer only
	BestRank  int           `json:"best_rank"`
	WorstRank int           `json:"worst_rank"`
}

// apiStabilityOf is entry's stability for the API. The ranking's list of
// every entry carries the summary only (withSwaps
// false): with the conditions, a 1000-entry answer grew from 459 KiB to
// 1.5 MB; the entry's own answer carries them.
func apiStabilityOf(st map[string]domain.EntryStability, entry string, withSwaps bool) *apiStability {
	e, ok := st[entry]
	if !ok {
		return nil // no edition, or not in it: none to show
	}
	out := &apiStability{Stable: e.Others == 0, Others: e.Others, BestRank: e.Best, WorstRank: e.Worst}
	if withSwaps {
		out.Swaps = e.Swaps
		if out.Swaps == nil {
			out.Swaps = []domain.Swap{}
		}
	}
	return out
}

// stabilityView is an entry's stability in words.
type stabilityView struct {
	Known   bool     // computed for this edition
	Summary string   // "stable" or "could change places with 2 other entries"
	Range   string   // "… its rank stays between 3 and 7", when not stable
	Lines   []string // one per condition, for the nearest entries only
	More    string   // "and 12 more entries", when not every entry is listed
}

// stabilityOf words an entry's stability; names and crit name the entries
// and criteria in the page's language.
func stabilityOf(p ui.Page, st map[string]domain.EntryStability, entry string, names, crit map[string]string) stabilityView {
	e, ok := st[entry]
	if !ok {
		return stabilityView{}
	}
	v := stabilityView{Known: true}
	if e.Others == 0 {
		v.Summary = p.T("public.stability_stable")
		return v
	}
	v.Summary = p.T("public.stability_swaps", e.Others)
	v.Range = p.T("public.stability_range", e.Best, e.Worst)
	listed := map[string]bool{}
	for _, s := range e.Swaps {
		listed[s.With] = true
		with := orSlug(names[s.With], s.With)
		c := orSlug(crit[s.Criterion], s.Criterion)
		if s.Kind == "score" {
			v.Lines = append(v.Lines, p.T("public.stability_if_score", with, orSlug(names[s.Entry], s.Entry), c))
		} else {
			v.Lines = append(v.Lines, p.T("public.stability_if_weight", with, c, signed(s.Delta)))
		}
	}
	if more := e.Others - len(listed); more > 0 {
		v.More = p.Plural("public.stability_more", more)
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

// tierOf is entry's tier and how many entries share it, in words; 0 and ""
// when there is no stability to read it from.
func tierOf(p ui.Page, st map[string]domain.EntryStability, entry string) (int, string) {
	e, ok := st[entry]
	if !ok || e.Tier == 0 {
		return 0, ""
	}
	others := -1
	for _, o := range st {
		if o.Tier == e.Tier {
			others++
		}
	}
	if others == 0 {
		return e.Tier, p.T("tiers.alone")
	}
	return e.Tier, p.Plural("tiers.shared", others)
}
