package site

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// methodCriterion is a criterion row of the methodology.
type methodCriterion struct {
	Name        string
	Description string
	Weight      int
	Scenario    []int // its weight in each scenario, in scenario order
}

// methodScenario names a scenario column.
type methodScenario struct {
	Name        string
	Description string
	Href        string
}

// methodOption is one answer to a needs question and what it requires.
type methodOption struct {
	Label    string
	Requires []string // "Delivery forms: Bare metal or GPU cloud servers"
	Reasons  []string
}

// methodFilter is a needs question.
type methodFilter struct {
	Question string
	Options  []methodOption
}

// methodologyView is the model of the methodology page.
type methodologyView struct {
	ui.Page
	L               linkSet
	Live            liveUpdates
	Slug            string
	RankingTitle    string
	RankingHref     string
	Description     string
	Criteria        []methodCriterion
	Scenarios       []methodScenario
	Filters         []methodFilter
	MinApprovals    int
	EvidenceChecked bool
	Illustrative    bool            // scores only illustrate the tool (the demo ranking)
	History         []methodEdition // newest first
	Conflicts       []methodConflict
}

// methodConflict is a reviewer's declared conflict of interest, disclosed.
type methodConflict struct {
	User   string
	Scope  string // the entry, or the whole ranking
	Reason string
	Date   string
}

func buildMethodology(ctx context.Context, read *projections.Store, p ui.Page, l linkSet, slug string) (methodologyView, error) {
	r, _, err := read.Definition(ctx, slug)
	if err != nil {
		return methodologyView{}, err
	}
	v := methodologyView{Page: p, L: l, Slug: slug, RankingTitle: r.Title.In(p.Lang), RankingHref: l.Ranking(slug, "", ""),
		Description: r.Description.In(p.Lang), MinApprovals: r.Quorum.MinApprovals,
		EvidenceChecked: r.Quorum.RequireEvidenceVerified, Illustrative: r.Illustrative}
	v.Page.Title = p.T("public.methodology_title") + " · " + v.RankingTitle
	if v.History, err = methodHistoryOf(ctx, read, p, l, slug, r); err != nil {
		return v, err
	}
	for _, sc := range r.Scenarios {
		v.Scenarios = append(v.Scenarios, methodScenario{Name: sc.Name.In(p.Lang), Description: sc.Description.In(p.Lang),
			Href: l.Ranking(slug, sc.Slug, "")})
	}
	for _, c := range r.Criteria {
		mc := methodCriterion{Name: c.Name.In(p.Lang), Description: c.Description.In(p.Lang), Weight: c.Weight}
		for _, sc := range r.Scenarios {
			mc.Scenario = append(mc.Scenario, sc.Weights[c.Slug])
		}
		v.Criteria = append(v.Criteria, mc)
	}
	for _, f := range r.Filters {
		mf := methodFilter{Question: f.Question.In(p.Lang)}
		for _, o := range f.Options {
			mo := methodOption{Label: o.Label.In(p.Lang)}
			for _, req := range o.Requires {
				name, values := req.Attribute, req.AnyOf
				if def, ok := r.Attribute(req.Attribute); ok {
					name, values = def.Name.In(p.Lang), tagLabels(p, def.Values, req.AnyOf)
				}
				mo.Requires = append(mo.Requires, name+p.T("public.colon")+strings.Join(values, p.T("public.or_sep")))
				if reason := req.Reason.In(p.Lang); reason != "" {
					mo.Reasons = append(mo.Reasons, reason)
				}
			}
			mf.Options = append(mf.Options, mo)
		}
		v.Filters = append(v.Filters, mf)
	}
	conflicts, err := read.Conflicts(ctx, slug)
	if err != nil {
		return v, err
	}
	for _, c := range conflicts {
		mc := methodConflict{User: c.User, Scope: p.T("public.conflicts.whole"), Reason: c.Reason, Date: p.Date(parseRFC3339(c.At))}
		if c.Entry != "" {
			mc.Scope = c.Entry
		}
		v.Conflicts = append(v.Conflicts, mc)
	}
	return v, nil
}

// parseRFC3339 reads a read model's timestamp; the zero time if malformed.
func parseRFC3339(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// methodology serves GET /r/{slug}/methodology.
func (s *Site) methodology(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug := r.PathValue("slug")
	s.servePage(w, r, slug, nil, false, func(p ui.Page, live liveUpdates) (templ.Component, error) {
		v, err := buildMethodology(ctx, s.read, p, liveLinks, slug)
		v.Live = live
		return methodologyPage(v), err
	})
}

// homeRow is one ranking on the start page.
type homeRow struct {
	Title       string
	Description string
	Href        string
	Edition     int
	PublishedOn string
}

// homeView is the model of the start page with several rankings.
type homeView struct {
	ui.Page
	L        linkSet
	Live     liveUpdates
	Rankings []homeRow
}

func buildHome(ctx context.Context, read *projections.Store, p ui.Page, l linkSet) (homeView, error) {
	list, err := read.PublicRankings(ctx)
	if err != nil {
		return homeView{}, err
	}
	v := homeView{Page: p, L: l}
	v.Page.Title = p.T("public.home_title")
	for _, rk := range list {
		r, _, err := read.Definition(ctx, rk.Slug)
		if err != nil {
			return v, err
		}
		mark, err := read.EditionMark(ctx, rk.Slug)
		if err != nil {
			return v, err
		}
		v.Rankings = append(v.Rankings, homeRow{Title: rk.Title.In(p.Lang), Description: r.Description.In(p.Lang),
			Href: l.Ranking(rk.Slug, "", ""), Edition: rk.Edition, PublishedOn: dayText(p, mark.PublishedAt)})
	}
	return v, nil
}
