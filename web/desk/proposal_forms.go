package desk

import (
	"cmp"
	"slices"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// Checked reports whether a failed submit of form had value ticked in field.
func (v proposalPageView) Checked(form, field, value string) bool {
	return slices.Contains(v.Form(form).Values[field], value)
}

// criterionOption is one criterion of the score form's select.
type criterionOption struct {
	Slug     string
	Text     string // "Price — published 7 · proposed 8"
	Selected bool
}

// criterionOptions lists the criteria with their published and proposed values.
func criterionOptions(p ui.Page, rk *domain.Ranking, pub *domain.PublishedEntry, d projections.ProposalDetail, st ui.FormState) []criterionOption {
	proposed := map[string]*int{}
	for _, c := range d.Changes {
		if k, ok := strings.CutPrefix(c.Target, "score:"); ok {
			proposed[k] = c.ToScore
		}
	}
	out := make([]criterionOption, 0, len(rk.Criteria))
	for _, c := range rk.Criteria {
		var published *int
		if pub != nil {
			if n, ok := pub.Scores[c.Slug]; ok {
				published = &n
			}
		}
		text := p.T("desk.score.option", cmp.Or(c.Name.In(p.Lang), c.Slug), scoreText(p, published))
		if to, ok := proposed[c.Slug]; ok {
			text += " · " + p.T("desk.score.option_proposed", scoreText(p, to))
		}
		out = append(out, criterionOption{Slug: c.Slug, Text: text, Selected: st.Value("criterion") == c.Slug})
	}
	return out
}

// attrForm is the form proposing one attribute's tags.
type attrForm struct {
	Name      string // the form's name: "attr-<key>"
	Key       string
	Label     string
	Published string
	Proposed  bool // the proposal already changes it
	Open      bool // shown unfolded
	FreeText  bool // no known values: tags typed one per line
	Text      string
	Values    []tagOption
	State     ui.FormState
}

// tagOption is one known value of an attribute, as a checkbox.
type tagOption struct {
	Value   string
	Label   string
	Checked bool
}

// attrForms lists a form per attribute, ticked with the proposed tags,
// else the published ones, else what a failed submit sent.
func attrForms(p ui.Page, v proposalPageView, rk *domain.Ranking, pub *domain.PublishedEntry, d projections.ProposalDetail) []attrForm {
	l := rankingLabels{rk}
	proposed := map[string][]string{}
	for _, c := range d.Changes {
		if k, ok := strings.CutPrefix(c.Target, "attr:"); ok {
			proposed[k] = c.ToTags
		}
	}
	out := make([]attrForm, 0, len(rk.Attributes))
	for _, a := range rk.Attributes {
		var published []string
		if pub != nil {
			published = pub.Attributes[a.Key]
		}
		f := attrForm{Name: "attr-" + a.Key, Key: a.Key, Label: cmp.Or(a.Name.In(p.Lang), a.Key),
			Published: l.tags(p.Lang, a.Key, published), FreeText: len(a.Values) == 0}
		f.State = v.Form(f.Name)
		current, ok := proposed[a.Key]
		f.Proposed = ok
		if !ok {
			current = published
		}
		if f.State.Values != nil {
			current = f.State.Values["to"]
			f.Open = true
		}
		f.Open = f.Open || f.Proposed
		f.Text = strings.Join(current, "\n")
		for _, val := range a.Values {
			f.Values = append(f.Values, tagOption{Value: val.Value, Label: cmp.Or(val.Label.In(p.Lang), val.Value),
				Checked: slices.Contains(current, val.Value)})
		}
		out = append(out, f)
	}
	return out
}

// evidenceChoice is an evidence item to cite (editor) or to tick as verified (reviewer).
// A choice names its claim in the page's language (events.Text.In): the
// evidence list on the same page has the other language behind its
// disclosure.
type evidenceChoice struct {
	ID    string
	Claim events.Text
}

// citable lists the current revision's evidence.
func citable(d projections.ProposalDetail) []evidenceChoice {
	var out []evidenceChoice
	for _, e := range d.Evidence {
		if !e.Removed {
			out = append(out, evidenceChoice{ID: e.ID, Claim: e.Claim})
		}
	}
	return out
}

// Action is the address a form of this page posts to ("evidence", "votes"…).
func (v proposalPageView) Action(name string) string { return ProposalPath(v.ID) + "/" + name }

// Val returns what a failed submit of form sent in field, else def.
// TierOptions lists the provenance tiers for the evidence form, "not
// stated" first, keeping the choice of a failed submit.
func (v proposalPageView) TierOptions() []selectOption {
	chosen := v.EvidenceVal("tier")
	out := []selectOption{{Value: "", Label: v.T("desk.field.tier_unstated"), Selected: chosen == ""}}
	for _, t := range domain.Tiers {
		out = append(out, selectOption{Value: string(t), Label: v.T("tier." + string(t)), Selected: chosen == string(t)})
	}
	return out
}

// EvidenceVal returns what a field of the evidence form shows: what a
// failed submit sent, else the re-verified item's claim, source and tier,
// else nothing.
func (v proposalPageView) EvidenceVal(field string) string {
	def := ""
	if s := v.Reverify; s != nil {
		e := s.Evidence
		def = map[string]string{"claim_zh": e.Claim.Zh, "claim_en": e.Claim.En, "source_url": e.SourceURL, "source_name": e.SourceName,
			"section": e.Section, "tier": string(e.Tier)}[field]
	}
	return v.Val("evidence", field, def)
}

func (v proposalPageView) Val(form, field, def string) string {
	if st := v.Form(form); st.Values != nil {
		return st.Value(field)
	}
	return def
}

// emptyKey is the message for an empty list of the proposal page: to the
// editor who can fill it, one that says how (key+"_next").
func emptyKey(key string, editable bool) string {
	if editable {
		return key + "_next"
	}
	return key
}
