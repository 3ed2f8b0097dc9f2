package desk

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// methodologyFormView is the model of the methodology form: a new
// ranking's, a change to a ranking's, or a methodology draft's edit. Its
// fields are named by the paths the domain names its errors with
// (command.MethodologyForm), and show Values: the methodology it starts
// from, or what a failed submit sent.
type methodologyFormView struct {
	ui.Page
	Action     string // where the form posts
	NewRanking bool
	Slug       string // the ranking's, fixed unless NewRanking
	Proposal   string // the draft it edits, "" to open one
	Values     url.Values
	State      ui.FormState
}

// blankRows is how many empty rows each list offers after the rows it
// holds; its "add a row" button adds more (see methodology_rows.go).
const blankRows = 1

// Val returns the value a field shows.
func (v methodologyFormView) Val(name string) string { return v.Values.Get(name) }

// Rows returns the row indexes of list: the filled ones and blankRows more.
func (v methodologyFormView) Rows(list string) []int {
	n := rowCount(v.Values, list)
	out := make([]int, 0, n+blankRows)
	for i := range n + blankRows {
		out = append(out, i)
	}
	return out
}

// WeightTotal sums the criteria weights the form shows.
func (v methodologyFormView) WeightTotal() int {
	sum := 0
	for _, i := range v.Rows("criteria") {
		w, _ := strconv.Atoi(strings.TrimSpace(v.Val(fmt.Sprintf("criteria[%d].weight", i))))
		sum += w
	}
	return sum
}

// at names field of row i of list.
func at(list string, i int, field string) string { return fmt.Sprintf("%s[%d].%s", list, i, field) }

// serveNewRanking shows the empty form that proposes a new ranking.
func (d *Desk) serveNewRanking(w http.ResponseWriter, r *http.Request) {
	v := methodologyFormView{Page: ui.PageOf(r, "desk.meth.new_title", "dashboard"), Action: "/desk/rankings",
		NewRanking: true, Values: url.Values{"quorum.min_approvals": {"2"}, "quorum.require_evidence_verified": {"1"}}}
	ui.Render(w, r, http.StatusOK, methodologyFormPage(v))
}

// serveChangeMethodology shows the form pre-filled with the ranking's
// methodology, or with a draft's (?proposal=) to edit it.
func (d *Desk) serveChangeMethodology(w http.ResponseWriter, r *http.Request) {
	v, err := d.changeMethodologyView(r, r.URL.Query().Get("proposal"))
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	ui.Render(w, r, http.StatusOK, methodologyFormPage(v))
}

func (d *Desk) changeMethodologyView(r *http.Request, proposal string) (methodologyFormView, error) {
	ctx, slug := r.Context(), r.PathValue("slug")
	v := methodologyFormView{Page: ui.PageOf(r, "desk.meth.change_title", "dashboard"), Slug: slug,
		Action: "/desk/rankings/" + slug + "/methodology"}
	if proposal != "" {
		if !events.ValidID(proposal) {
			return v, domain.ErrProposalMissing
		}
		p, err := d.cmd.Proposal(ctx, proposal)
		if err != nil {
			return v, err
		}
		if !p.IsMethodology() || p.Ranking != slug {
			return v, domain.ErrProposalMissing
		}
		v.Proposal, v.Action, v.NewRanking = p.ID, ProposalPath(p.ID)+"/methodology", p.NewRanking
		if p.Methodology != nil {
			v.Values = methodologyValues(p.Methodology.Methodology)
			v.Values.Set("rationale_zh", p.Methodology.Rationale.Zh)
			v.Values.Set("rationale_en", p.Methodology.Rationale.En)
		}
	}
	if v.Values == nil {
		rk, err := d.cmd.Ranking(ctx, slug)
		if err != nil {
			return v, err
		}
		v.Values = methodologyValues(rk.Methodology())
	}
	return v, nil
}

// methodologyDone goes to the proposal the form opened or edited.
func methodologyDone(_ *http.Request, in *command.MethodologyInput, _ handler.Result) string {
	return ProposalPath(in.Proposal)
}

// methodologyFailed shows the form again with what was sent and the
// message of the refusal, next to the field it names.
func (d *Desk) methodologyFailed(w http.ResponseWriter, r *http.Request, in *command.MethodologyInput, st ui.FormState, status int) {
	title := "desk.meth.change_title"
	if in.NewRanking {
		title = "desk.meth.new_title"
	}
	v := methodologyFormView{Page: ui.PageOf(r, title, "dashboard"), NewRanking: in.NewRanking, Slug: in.Ranking,
		Proposal: r.PathValue("id"), Values: st.Values, State: st}
	switch {
	case v.Proposal != "":
		v.Action = ProposalPath(v.Proposal) + "/methodology"
	case in.NewRanking:
		v.Action = "/desk/rankings"
	default:
		v.Action = "/desk/rankings/" + in.Ranking + "/methodology"
	}
	// The handler reports a malformed ranking slug as a bad "proposal".
	if _, ok := st.Fields["proposal"]; ok && in.NewRanking {
		if err := domain.CheckSlug("slug", in.Ranking); err != nil {
			v.State.Summary = httpx.Message(httpx.Lang(r.Context()), err)
			v.State.Fields = map[string]string{"slug": v.State.Summary}
		}
	}
	ui.Render(w, r, status, methodologyFormPage(v))
}

// methodologyValues is the form's values for methodology m: the inverse of
// command.MethodologyForm.
func methodologyValues(m events.Methodology) url.Values {
	v := url.Values{}
	text := func(name string, t events.Text) { v.Set(name+".zh", t.Zh); v.Set(name+".en", t.En) }
	text("title", m.Title)
	text("description", m.Description)
	v.Set("license", m.License)
	v.Set("quorum.min_approvals", strconv.Itoa(m.Quorum.MinApprovals))
	if m.Quorum.RequireEvidenceVerified {
		v.Set("quorum.require_evidence_verified", "1")
	}
	if m.Illustrative {
		v.Set("illustrative", "1")
	}
	for i, c := range m.Categories {
		v.Set(at("categories", i, "slug"), c.Slug)
		text(at("categories", i, "name"), c.Name)
		text(at("categories", i, "description"), c.Description)
	}
	for i, c := range m.Criteria {
		v.Set(at("criteria", i, "slug"), c.Slug)
		text(at("criteria", i, "name"), c.Name)
		text(at("criteria", i, "description"), c.Description)
		v.Set(at("criteria", i, "weight"), strconv.Itoa(c.Weight))
	}
	for i, a := range m.Attributes {
		v.Set(at("attributes", i, "key"), a.Key)
		text(at("attributes", i, "name"), a.Name)
		var lines []string
		for _, val := range a.Values {
			lines = append(lines, val.Value+" | "+val.Label.Zh+" | "+val.Label.En)
		}
		v.Set(at("attributes", i, "values"), strings.Join(lines, "\n"))
	}
	for i, s := range m.Scenarios {
		v.Set(at("scenarios", i, "slug"), s.Slug)
		text(at("scenarios", i, "name"), s.Name)
		text(at("scenarios", i, "description"), s.Description)
		var lines []string
		for _, c := range m.Criteria {
			if w, ok := s.Weights[c.Slug]; ok {
				lines = append(lines, c.Slug+"="+strconv.Itoa(w))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(s.Weights)) {
			if !slices.ContainsFunc(m.Criteria, func(c events.Criterion) bool { return c.Slug == k }) {
				lines = append(lines, k+"="+strconv.Itoa(s.Weights[k]))
			}
		}
		v.Set(at("scenarios", i, "weights"), strings.Join(lines, "\n"))
	}
	for i, f := range m.Filters {
		v.Set(at("filters", i, "key"), f.Key)
		text(at("filters", i, "question"), f.Question)
		var lines []string
		for _, o := range f.Options {
			parts := []string{o.Value, o.Label.Zh, o.Label.En}
			for _, q := range o.Requires {
				parts = append(parts, q.Attribute+"="+strings.Join(q.AnyOf, " "), q.Reason.Zh, q.Reason.En)
			}
			lines = append(lines, strings.Join(parts, " | "))
		}
		v.Set(at("filters", i, "options"), strings.Join(lines, "\n"))
	}
	return v
}
