package desk

import (
	"context"
	"maps"
	"net/http"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/ui"
)

// impactView is the rank-impact preview as a page shows it: "if accepted:
// #5 → #3 overall, #2 → #1 in AI 算力云, 训练 scenario #4 → #2".
type impactView struct {
	URL      string // where the live script asks for a hypothetical score
	Heading  string
	Total    string // "total 6.5 → 7.2"
	Rows     []impactRow
	Sentence string // the rows in one sentence, for reading aloud and for tests
	What     string // the hypothetical shown ("if Price were 9"), "" for the proposal as it stands
}

// impactRow is the entry's rank in one scope, before and after.
type impactRow struct {
	ID   string // "overall", "category", "scenario-<slug>"
	Text string
	Move string // "up", "down", "same" or "new"
}

// impactOf puts an impact into words in the page's language.
func impactOf(p ui.Page, proposal string, im domain.Impact) impactView {
	v := impactView{
		URL:     ProposalPath(proposal) + "/impact",
		Heading: p.T("desk.impact.heading"),
		Total:   p.T("desk.impact.total", totalText(im.BeforeTotal), totalText(im.AfterTotal)),
	}
	rank := func(n int) string {
		if n == 0 {
			return p.T("desk.impact.unranked")
		}
		return "#" + strconv.Itoa(n)
	}
	texts := make([]string, 0, len(im.Changes))
	for _, c := range im.Changes {
		row := impactRow{ID: c.Scope, Move: rankMove(c.Before, c.After)}
		b, a := rank(c.Before), rank(c.After)
		switch {
		case c.Scope == "overall":
			row.Text = p.T("desk.impact.overall", b, a)
		case c.Scope == "category":
			row.Text = p.T("desk.impact.category", b, a, c.Label.In(p.Lang))
		default:
			row.ID = "scenario-" + strings.TrimPrefix(c.Scope, "scenario:")
			row.Text = p.T("desk.impact.scenario", b, a, c.Label.In(p.Lang))
		}
		v.Rows = append(v.Rows, row)
		texts = append(texts, row.Text)
	}
	v.Sentence = v.Heading + " " + strings.Join(texts, listSep(p.Lang))
	return v
}

// rankMove says which way a rank moved; a smaller number is a better rank.
func rankMove(before, after int) string {
	switch {
	case before == 0:
		return "new"
	case after < before:
		return "up"
	case after > before:
		return "down"
	}
	return "same"
}

// serveImpact answers GET /desk/proposals/{id}/impact with the impact
// panel: of the proposal as it stands, or, given ?criterion=&to=, as if the
// score of that criterion were to. The editor's page asks for it while the
// score is being typed; nothing is stored.
func (d *Desk) serveImpact(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p := ui.PageOf(r, "", "")
	id := r.PathValue("id")
	q := r.URL.Query()
	var im domain.Impact
	var err error
	what := ""
	if crit, to := q.Get("criterion"), q.Get("to"); crit == "" && to == "" {
		im, err = d.cmd.RankImpact(ctx, id)
	} else {
		var rk *domain.Ranking
		var score int
		im, rk, score, err = d.hypotheticalImpact(ctx, id, crit, to)
		if err == nil {
			what = p.T("desk.impact.what_if", rankingLabels{rk}.criterion(p.Lang, crit), score)
		}
	}
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	v := impactOf(p, id, im)
	v.What = what
	ui.Render(w, r, http.StatusOK, impactPanel(v))
}

// hypotheticalImpact computes the impact of the proposal as if it proposed
// score to (a whole number 0–10, as typed) for criterion.
func (d *Desk) hypotheticalImpact(ctx context.Context, id, criterion, to string) (domain.Impact, *domain.Ranking, int, error) {
	var score int
	im, rk, err := d.cmd.RankImpactIf(ctx, id, func(p *domain.Proposal, rk *domain.Ranking) (*domain.Proposal, error) {
		if !rk.HasCriterion(criterion) {
			return nil, domain.Invalid("criterion", "ranking.not_criterion", nil)
		}
		var err error
		score, err = strconv.Atoi(strings.TrimSpace(to))
		if err != nil || score < domain.MinScore || score > domain.MaxScore {
			return nil, domain.Invalid("to", "field.score", domain.Args{"min": domain.MinScore, "max": domain.MaxScore})
		}
		return withScore(p, criterion, score), nil
	})
	return im, rk, score, err
}

// withScore returns a copy of p that proposes score to for criterion. p is
// the handler's cached state, shared with other requests: it is not touched.
func withScore(p *domain.Proposal, criterion string, to int) *domain.Proposal {
	c := *p
	c.Scores = maps.Clone(p.Scores)
	if c.Scores == nil {
		c.Scores = map[string]events.ScoreChangeProposed{}
	}
	ch := c.Scores[criterion]
	ch.Criterion, ch.To = criterion, to
	c.Scores[criterion] = ch
	return &c
}
