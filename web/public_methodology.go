package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// pubMethodCriterion is a criterion row of the methodology.
type pubMethodCriterion struct {
	Name        string
	Description string
	Weight      int
	Scenario    []int // its weight in each scenario, in scenario order
}

// pubMethodScenario names a scenario column.
type pubMethodScenario struct {
	Name        string
	Description string
	Href        string
}

// pubMethodOption is one answer to a needs question and what it requires.
type pubMethodOption struct {
	Label    string
	Requires []string // "Delivery forms: Bare metal or GPU cloud servers"
	Reasons  []string
}

// pubMethodFilter is a needs question.
type pubMethodFilter struct {
	Question string
	Options  []pubMethodOption
}

// pubMethodologyView is the model of the methodology page.
type pubMethodologyView struct {
	ui.Page
	L               pubLinks
	Live            pubLive
	Slug            string
	RankingTitle    string
	RankingHref     string
	Description     string
	Criteria        []pubMethodCriterion
	Scenarios       []pubMethodScenario
	Filters         []pubMethodFilter
	MinApprovals    int
	EvidenceChecked bool
	Illustrative    bool // scores only illustrate the tool (the demo ranking)
}

func buildMethodology(ctx context.Context, read *projections.Store, p ui.Page, l pubLinks, slug string) (pubMethodologyView, error) {
	r, _, err := read.Definition(ctx, slug)
	if err != nil {
		return pubMethodologyView{}, err
	}
	v := pubMethodologyView{Page: p, L: l, Slug: slug, RankingTitle: r.Title.In(p.Lang), RankingHref: l.Ranking(slug, "", ""),
		Description: r.Description.In(p.Lang), MinApprovals: r.Quorum.MinApprovals,
		EvidenceChecked: r.Quorum.RequireEvidenceVerified, Illustrative: r.Illustrative}
	v.Page.Title = p.T("public.methodology_title") + " · " + v.RankingTitle
	for _, sc := range r.Scenarios {
		v.Scenarios = append(v.Scenarios, pubMethodScenario{Name: sc.Name.In(p.Lang), Description: sc.Description.In(p.Lang),
			Href: l.Ranking(slug, sc.Slug, "")})
	}
	for _, c := range r.Criteria {
		mc := pubMethodCriterion{Name: c.Name.In(p.Lang), Description: c.Description.In(p.Lang), Weight: c.Weight}
		for _, sc := range r.Scenarios {
			mc.Scenario = append(mc.Scenario, sc.Weights[c.Slug])
		}
		v.Criteria = append(v.Criteria, mc)
	}
	for _, f := range r.Filters {
		mf := pubMethodFilter{Question: f.Question.In(p.Lang)}
		for _, o := range f.Options {
			mo := pubMethodOption{Label: o.Label.In(p.Lang)}
			for _, req := range o.Requires {
				name, values := req.Attribute, req.AnyOf
				if def, ok := r.Attribute(req.Attribute); ok {
					name, values = def.Name.In(p.Lang), pubTagLabels(p, def.Values, req.AnyOf)
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
	return v, nil
}

// publicMethodology serves GET /r/{slug}/methodology.
func (s *Server) publicMethodology(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug := r.PathValue("slug")
	s.servePublicPage(w, r, slug, nil, false, func(p ui.Page, live pubLive) (pubPage, error) {
		v, err := buildMethodology(ctx, s.read, p, liveLinks, slug)
		v.Live = live
		return pubMethodologyPage(v), err
	})
}

// pubHomeRow is one ranking on the start page.
type pubHomeRow struct {
	Title       string
	Description string
	Href        string
	Edition     int
	PublishedOn string
}

// pubHomeView is the model of the start page with several rankings.
type pubHomeView struct {
	ui.Page
	L        pubLinks
	Live     pubLive
	Rankings []pubHomeRow
}

func buildHome(ctx context.Context, read *projections.Store, p ui.Page, l pubLinks) (pubHomeView, error) {
	list, err := read.Rankings(ctx)
	if err != nil {
		return pubHomeView{}, err
	}
	v := pubHomeView{Page: p, L: l}
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
		v.Rankings = append(v.Rankings, pubHomeRow{Title: rk.Title.In(p.Lang), Description: r.Description.In(p.Lang),
			Href: l.Ranking(rk.Slug, "", ""), Edition: rk.Edition, PublishedOn: pubDay(p, mark.PublishedAt)})
	}
	return v, nil
}
