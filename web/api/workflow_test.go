package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest"
)

// listProposals GETs /api/v1/proposals with q and decodes the page.
func listProposals(t *testing.T, c *webtest.Client, q url.Values) api.ProposalList {
	t.Helper()
	res, body := c.Do(http.MethodGet, "/api/v1/proposals?"+q.Encode(), nil, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("list %s: status %d, body %.300s", q.Encode(), res.StatusCode, body)
	}
	var page api.ProposalList
	if err := json.Unmarshal([]byte(body), &page); err != nil {
		t.Fatal(err)
	}
	return page
}

func proposalIDs(ps []api.Proposal) []string {
	var ids []string
	for _, p := range ps {
		ids = append(ids, p.ID)
	}
	return ids
}

func TestAPIProposalListPagesAndFilters(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	c := e.Client("ed")

	all := listProposals(t, c, url.Values{"limit": {"200"}})
	if all.Next != "" || len(all.Proposals) < 3 {
		t.Fatalf("one page of everything: %d proposals, next %q", len(all.Proposals), all.Next)
	}
	for i := 1; i < len(all.Proposals); i++ {
		a, b := all.Proposals[i-1], all.Proposals[i]
		if a.Opened.After(b.Opened) {
			t.Errorf("%s (opened %v) listed before %s (opened %v)", a.ID, a.Opened, b.ID, b.Opened)
		}
	}

	// Pages of two follow one another, each proposal once, in the same order.
	var paged []string
	q := url.Values{"limit": {"2"}}
	for pages := 0; ; pages++ {
		if pages > len(all.Proposals) {
			t.Fatal("paging does not end")
		}
		page := listProposals(t, c, q)
		if len(page.Proposals) > 2 {
			t.Fatalf("a page of %d, want at most 2", len(page.Proposals))
		}
		paged = append(paged, proposalIDs(page.Proposals)...)
		if page.Next == "" {
			break
		}
		q.Set("after", page.Next)
	}
	if want := proposalIDs(all.Proposals); !slices.Equal(paged, want) {
		t.Errorf("paged %v, want %v", paged, want)
	}

	// Each item is the JSON of GET /api/v1/proposals/{id}.
	_, one := c.Do(http.MethodGet, "/api/v1/proposals/"+webtest.DemoReady, nil, nil)
	var single api.Proposal
	if err := json.Unmarshal([]byte(one), &single); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(all.Proposals, func(p api.Proposal) bool { return p.ID == webtest.DemoReady })
	if i < 0 {
		t.Fatalf("%s is not listed", webtest.DemoReady)
	}
	got, _ := json.Marshal(all.Proposals[i])
	want, _ := json.Marshal(single)
	if string(got) != string(want) {
		t.Errorf("listed\n%s\nGET by id\n%s", got, want)
	}

	// Filters.
	tests := []struct {
		name  string
		q     url.Values
		match func(api.Proposal) bool
	}{
		{"status", url.Values{"status": {"cross_validated"}}, func(p api.Proposal) bool { return p.Status == domain.StatusCrossValidated }},
		{"ranking", url.Values{"ranking": {demo.RankingSlug}}, func(p api.Proposal) bool { return p.Ranking == demo.RankingSlug }},
		{"entry", url.Values{"entry": {single.Entry}}, func(p api.Proposal) bool { return p.Entry == single.Entry }},
		{"author", url.Values{"author": {single.Author}, "ranking": {demo.RankingSlug}}, func(p api.Proposal) bool { return p.Author == single.Author }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := listProposals(t, c, tt.q)
			if !slices.Contains(proposalIDs(page.Proposals), webtest.DemoReady) {
				t.Errorf("%s not listed", webtest.DemoReady)
			}
			var wantIDs []string
			for _, p := range all.Proposals {
				if tt.match(p) {
					wantIDs = append(wantIDs, p.ID)
				}
			}
			if got := proposalIDs(page.Proposals); !slices.Equal(got, wantIDs) {
				t.Errorf("listed %v, want %v", got, wantIDs)
			}
		})
	}
	if page := listProposals(t, c, url.Values{"ranking": {"no-such-ranking"}}); len(page.Proposals) != 0 || page.Next != "" {
		t.Errorf("an unknown ranking lists %d proposals", len(page.Proposals))
	}

	// Bad queries name the field.
	bad := []struct {
		q      string
		status int
		field  string
	}{
		{"status=open", http.StatusUnprocessableEntity, "status"},
		{"limit=many", http.StatusBadRequest, "limit"},
		{"limit=0", http.StatusBadRequest, "limit"},
		{"after=%21%21", http.StatusBadRequest, "after"},
		{"after=bm9zcGFjZQ", http.StatusBadRequest, "after"},
	}
	for _, b := range bad {
		res, body := c.Do(http.MethodGet, "/api/v1/proposals?"+b.q, nil, nil)
		if res.StatusCode != b.status {
			t.Errorf("%s: status %d, want %d", b.q, res.StatusCode, b.status)
			continue
		}
		if p := webtest.DecodeProblem(t, res, body); len(p.Errors) != 1 || p.Errors[0].Field != b.field {
			t.Errorf("%s: problem %+v, want the field %s", b.q, p, b.field)
		}
	}
	if res, _ := e.Client("").Do(http.MethodGet, "/api/v1/proposals", nil, nil); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("signed out: status %d, want 401", res.StatusCode)
	}
}

// previewProblem is a 409 on publish with the current preview.
type previewProblem struct {
	Type   string `json:"type"`
	Status int    `json:"status"`
	api.EditionPreview
}

func TestAPIPreviewPublishRoundTrip(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	pat := e.Client("pat")
	previewURL := "/api/v1/rankings/" + demo.RankingSlug + "/editions/preview"
	body := map[string]any{"proposals": []string{webtest.DemoReady}}

	res, raw := pat.PostJSON(previewURL, body, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("preview: status %d, body %.300s", res.StatusCode, raw)
	}
	var pv api.EditionPreview
	if err := json.Unmarshal([]byte(raw), &pv); err != nil {
		t.Fatal(err)
	}
	want, _, err := e.Cmd.PreviewEdition(e.Ctx, demo.RankingSlug, []string{webtest.DemoReady})
	if err != nil {
		t.Fatal(err)
	}
	if pv.PreviewHash != want.Hash || pv.Number != 2 || len(pv.Changes) == 0 || len(pv.Moves) != len(want.After.Entries) {
		t.Fatalf("preview %+v, want hash %s, edition 2, the changes and a move per entry", pv, want.Hash)
	}
	if c := pv.Changes[0]; c.Proposal != webtest.DemoReady || c.Target == "" {
		t.Errorf("change %+v", c)
	}

	// Only a publisher previews; bad choices are the domain's errors.
	if res, _ := e.Client("ed").PostJSON(previewURL, body, nil); res.StatusCode != http.StatusForbidden {
		t.Errorf("an editor previews: status %d, want 403", res.StatusCode)
	}
	for _, b := range []struct {
		body   any
		status int
	}{
		{map[string]any{"proposals": []string{}}, http.StatusUnprocessableEntity},
		{map[string]any{"proposals": []string{"nope"}}, http.StatusNotFound},
		{map[string]any{"proposals": []string{webtest.DemoInReview}}, http.StatusConflict},
		{map[string]any{"proposal": []string{webtest.DemoReady}}, http.StatusBadRequest},
	} {
		if res, raw := pat.PostJSON(previewURL, b.body, nil); res.StatusCode != b.status {
			t.Errorf("preview %v: status %d, want %d; %.200s", b.body, res.StatusCode, b.status, raw)
		}
	}

	// The proposal is revised and approved again: the preview changed, and
	// the 409 carries the new one.
	webtest.Revalidated(t, e.AdminEnv, webtest.DemoReady)
	publishURL := "/api/v1/rankings/" + demo.RankingSlug + "/editions"
	before := e.LastSeq()
	res, raw = pat.PostJSON(publishURL, map[string]any{"proposals": []string{webtest.DemoReady}, "preview_hash": pv.PreviewHash}, nil)
	if res.StatusCode != http.StatusConflict {
		t.Fatalf("stale hash: status %d, want 409; %.300s", res.StatusCode, raw)
	}
	if e.LastSeq() != before {
		t.Error("a refused publish appended events")
	}
	webtest.DecodeProblem(t, res, raw)
	var stale previewProblem
	if err := json.Unmarshal([]byte(raw), &stale); err != nil {
		t.Fatal(err)
	}
	current, _, _ := e.Cmd.PreviewEdition(e.Ctx, demo.RankingSlug, []string{webtest.DemoReady})
	if stale.Type != "urn:crossrank:problem:conflict" || stale.PreviewHash != current.Hash || stale.PreviewHash == pv.PreviewHash ||
		len(stale.Changes) != len(pv.Changes) || len(stale.Moves) != len(pv.Moves) {
		t.Fatalf("409 body %.600s: want the current preview %s", raw, current.Hash)
	}

	// The hash the 409 carried publishes.
	res, raw = pat.PostJSON(publishURL, map[string]any{"proposals": []string{webtest.DemoReady}, "preview_hash": stale.PreviewHash}, nil)
	if res.StatusCode != http.StatusCreated || res.Header.Get("Location") != publishURL+"/2" {
		t.Fatalf("publish: status %d, Location %q, body %.300s", res.StatusCode, res.Header.Get("Location"), raw)
	}
}

func TestAPIMethodology(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	c := e.Client("") // a public read
	res, raw := c.Do(http.MethodGet, "/api/v1/rankings/"+demo.RankingSlug+"/methodology", nil, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d, body %.300s", res.StatusCode, raw)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ranking", "title", "description", "edition", "categories", "criteria", "attributes", "scenarios", "filters", "quorum"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %.300s", k, raw)
		}
	}
	var got api.Methodology
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	def, err := e.Cmd.Ranking(e.Ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	if got.Ranking != demo.RankingSlug || got.Edition != 1 || got.Title != def.Title {
		t.Errorf("ranking %q edition %d title %+v", got.Ranking, got.Edition, got.Title)
	}
	sum := 0
	for _, cr := range got.Criteria {
		sum += cr.Weight
		if cr.Slug == "" || cr.Name.Zh == "" || cr.Name.En == "" {
			t.Errorf("criterion %+v lacks a slug or a name in both languages", cr)
		}
	}
	if sum != 100 || len(got.Criteria) != len(def.Criteria) {
		t.Errorf("%d criteria weighing %d, want %d weighing 100", len(got.Criteria), sum, len(def.Criteria))
	}
	if len(got.Categories) != len(def.Categories) || len(got.Attributes) != len(def.Attributes) ||
		len(got.Scenarios) != len(def.Scenarios) || len(got.Filters) != len(def.Filters) || len(got.Scenarios) == 0 || len(got.Filters) == 0 {
		t.Errorf("categories %d/%d attributes %d/%d scenarios %d/%d filters %d/%d", len(got.Categories), len(def.Categories),
			len(got.Attributes), len(def.Attributes), len(got.Scenarios), len(def.Scenarios), len(got.Filters), len(def.Filters))
	}
	if sc := got.Scenarios[0]; sc.Slug == "" || sc.Name.Zh == "" || sc.Name.En == "" || len(sc.Weights) == 0 {
		t.Errorf("scenario %+v", sc)
	}
	if f := got.Filters[0]; f.Key == "" || f.Question.Zh == "" || len(f.Options) == 0 {
		t.Errorf("filter %+v", f)
	}
	if res, _ := c.Do(http.MethodGet, "/api/v1/rankings/no-such/methodology", nil, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown ranking: status %d, want 404", res.StatusCode)
	}
}
