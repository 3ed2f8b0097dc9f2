package api_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain/demo"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest"
)

// approveAndPublish has rev and rex approve proposal id and pat publish it
// with the preview's hash; it returns the preview.
func approveAndPublish(t *testing.T, e *adminEnv, ranking, id string) api.EditionPreview {
	t.Helper()
	var p api.Proposal
	webtest.APIJSON(t, e.Client("ed"), http.MethodPost, "/api/v1/proposals/"+id+"/submit", map[string]any{}, http.StatusOK, nil)
	for _, reviewer := range []string{"rev", "rex"} {
		webtest.APIJSON(t, e.Client(reviewer), http.MethodGet, "/api/v1/proposals/"+id, nil, http.StatusOK, &p)
		webtest.APIJSON(t, e.Client(reviewer), http.MethodPost, "/api/v1/proposals/"+id+"/votes",
			map[string]any{"verdict": "approve", "revision": p.Revision, "verified_evidence": []string{}}, http.StatusCreated, nil)
	}
	pat := e.Client("pat")
	var pv api.EditionPreview
	webtest.APIJSON(t, pat, http.MethodPost, "/api/v1/rankings/"+ranking+"/editions/preview",
		map[string]any{"proposals": []string{id}}, http.StatusOK, &pv)
	webtest.APIJSON(t, pat, http.MethodPost, "/api/v1/rankings/"+ranking+"/editions",
		map[string]any{"proposals": []string{id}, "preview_hash": pv.PreviewHash}, http.StatusCreated, nil)
	e.CaughtUp()
	return pv
}

func TestAPIMethodologyDefinesAndChangesARanking(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	ed := e.Client("ed")

	// Open and propose in one request; the same command id again is a retry.
	body := map[string]any{"id": "define-laptops", "kind": "methodology", "ranking": webtest.NewRanking, "new_ranking": true,
		"title": "Define laptops", "methodology": webtest.LaptopMethodology(), "rationale": "Readers asked for it."}
	var opened struct {
		ID string `json:"id"`
	}
	webtest.APIJSON(t, ed, http.MethodPost, "/api/v1/proposals", body, http.StatusCreated, &opened)
	before := e.LastSeq()
	var again struct {
		ID       string `json:"id"`
		Replayed bool   `json:"replayed"`
	}
	webtest.APIJSON(t, ed, http.MethodPost, "/api/v1/proposals", body, http.StatusCreated, &again)
	if again.ID != opened.ID || !again.Replayed || e.LastSeq() != before {
		t.Fatalf("retry: %+v, stored %d → %d; want the same proposal, replayed, nothing stored", again, before, e.LastSeq())
	}
	e.CaughtUp()

	var p api.Proposal
	webtest.APIJSON(t, ed, http.MethodGet, "/api/v1/proposals/"+opened.ID, nil, http.StatusOK, &p)
	if p.Kind != "methodology" || !p.NewRanking || p.Methodology == nil || p.Rationale != (events.Text{En: "Readers asked for it."}) ||
		p.Base == nil || len(p.Changes) != 1 || p.Changes[0].Kind != "defined" {
		t.Fatalf("proposal = kind %q new %v methodology %v rationale %q base %v changes %+v",
			p.Kind, p.NewRanking, p.Methodology != nil, p.Rationale, p.Base, p.Changes)
	}

	// Not public while the proposal is open.
	for _, target := range []string{"/r/" + webtest.NewRanking, "/r/" + webtest.NewRanking + "/methodology", "/r/" + webtest.NewRanking + "/editions",
		"/r/" + webtest.NewRanking + "/feed.atom", "/api/v1/rankings/" + webtest.NewRanking, "/api/v1/rankings/" + webtest.NewRanking + "/methodology",
		"/api/v1/rankings/" + webtest.NewRanking + "/editions"} {
		if res, body := ed.Do(http.MethodGet, target, nil, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s while proposed: %d, want 404; %.200s", target, res.StatusCode, body)
		}
	}
	if _, body := ed.Do(http.MethodGet, "/api/v1/rankings", nil, nil); strings.Contains(body, webtest.NewRanking) {
		t.Errorf("the rankings list shows a proposed ranking: %.400s", body)
	}
	if _, body := ed.Do(http.MethodGet, "/", nil, nil); strings.Contains(body, "/r/"+webtest.NewRanking) {
		t.Error("the home page links a proposed ranking")
	}

	pv := approveAndPublish(t, e, webtest.NewRanking, opened.ID)
	if pv.Number != 1 || pv.Methodology == nil || pv.Methodology.Proposal != opened.ID ||
		len(pv.Methodology.Changes) != 1 || pv.Methodology.Changes[0].Kind != "defined" {
		t.Fatalf("preview = number %d methodology %+v", pv.Number, pv.Methodology)
	}

	var list struct {
		Rankings []struct {
			Slug         string      `json:"slug"`
			Title        events.Text `json:"title"`
			Edition      int         `json:"edition"`
			PublishedAt  string      `json:"published_at"`
			SnapshotHash string      `json:"snapshot_hash"`
		} `json:"rankings"`
	}
	webtest.APIJSON(t, ed, http.MethodGet, "/api/v1/rankings", nil, http.StatusOK, &list)
	found := false
	for _, r := range list.Rankings {
		if r.Slug == webtest.NewRanking {
			found = r.Edition == 1 && r.Title.En == "Laptops" && r.PublishedAt != "" && r.SnapshotHash == pv.SnapshotHash
			if !found {
				t.Errorf("listed as %+v, want edition 1 with the preview's snapshot hash %s", r, pv.SnapshotHash)
			}
		}
	}
	if !found || len(list.Rankings) != 2 {
		t.Fatalf("rankings = %+v, want the demo and %s", list.Rankings, webtest.NewRanking)
	}
	if _, body := ed.Do(http.MethodGet, "/", nil, nil); !strings.Contains(body, "/r/"+webtest.NewRanking) {
		t.Error("the home page does not link the published ranking")
	}

	var m api.Methodology
	webtest.APIJSON(t, ed, http.MethodGet, "/api/v1/rankings/"+webtest.NewRanking+"/methodology", nil, http.StatusOK, &m)
	if m.Edition != 1 || m.License != "CC-BY-4.0" || len(m.Criteria) != 2 || len(m.Scenarios) != 1 || len(m.Filters) != 1 ||
		len(m.History) != 1 || m.History[0].Edition != 1 || m.History[0].Proposal != opened.ID ||
		m.History[0].Changes[0].Kind != "defined" || m.History[0].Actor != "pat" {
		t.Fatalf("methodology = %+v", m)
	}

	// A weights change, opened, then replaced in the draft, published in edition 2.
	changed := webtest.LaptopMethodology()
	changed.Criteria[0].Weight, changed.Criteria[1].Weight = 50, 50
	webtest.APIJSON(t, ed, http.MethodPost, "/api/v1/proposals", map[string]any{"kind": "methodology", "ranking": webtest.NewRanking,
		"title": "Even weights", "methodology": changed, "rationale": "first try"}, http.StatusCreated, &opened)
	changed.Criteria[0].Weight, changed.Criteria[1].Weight = 30, 70
	webtest.APIJSON(t, ed, http.MethodPut, "/api/v1/proposals/"+opened.ID+"/methodology",
		map[string]any{"methodology": changed, "rationale": "Battery matters more."}, http.StatusOK, nil)
	e.CaughtUp()
	webtest.APIJSON(t, ed, http.MethodGet, "/api/v1/proposals/"+opened.ID, nil, http.StatusOK, &p)
	if p.Rationale != (events.Text{En: "Battery matters more."}) || p.Methodology.Criteria[0].Weight != 30 || len(p.Changes) != 2 {
		t.Fatalf("replaced proposal: rationale %q changes %+v", p.Rationale, p.Changes)
	}
	seq := e.LastSeq()
	webtest.APIJSON(t, e.Client("rev"), http.MethodPut, "/api/v1/proposals/"+opened.ID+"/methodology",
		map[string]any{"methodology": webtest.LaptopMethodology(), "rationale": "mine"}, http.StatusForbidden, nil)
	if e.LastSeq() != seq {
		t.Fatal("a reviewer's replacement was stored")
	}
	approveAndPublish(t, e, webtest.NewRanking, opened.ID)
	webtest.APIJSON(t, ed, http.MethodPut, "/api/v1/proposals/"+opened.ID+"/methodology",
		map[string]any{"methodology": webtest.LaptopMethodology(), "rationale": "too late"}, http.StatusConflict, nil)
	webtest.APIJSON(t, ed, http.MethodGet, "/api/v1/rankings/"+webtest.NewRanking+"/methodology", nil, http.StatusOK, &m)
	if m.Edition != 2 || len(m.History) != 2 || m.Criteria[0].Weight != 30 {
		t.Fatalf("after edition 2: edition %d, history %+v", m.Edition, m.History)
	}
	want := []events.MethodologyChange{{Kind: "weight", Target: "price", From: "60", To: "30"},
		{Kind: "weight", Target: "battery", From: "40", To: "70"}}
	got := m.History[1].Changes
	if m.History[1].Edition != 2 || len(got) != len(want) {
		t.Fatalf("edition 2 changes = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d = %+v, want %+v", i, got[i], want[i])
		}
	}

	// The public methodology page words the history per edition, newest
	// first, in both languages, linking each proposal's audit record; the
	// edition page shows what it changed.
	for _, tc := range []struct{ lang, edition2, edition1 string }{
		{"en", "Weight of Price 60 → 30.", "Defined the ranking “Laptops”."},
		{"zh-CN", "「价格」权重 60 → 30。", "定义榜单「Laptops」。"},
	} {
		doc := pageDoc(t, ed, "/r/"+webtest.NewRanking+"/methodology", tc.lang)
		editions := doc.Find(`[data-testid="method-edition"]`)
		if editions.Length() != 2 {
			t.Fatalf("%s: %d editions in the history, want 2", tc.lang, editions.Length())
		}
		first := editions.First().Find(`[data-testid="method-change"]`).First().Text()
		last := editions.Last().Find(`[data-testid="method-change"]`).First().Text()
		if first != tc.edition2 || last != tc.edition1 {
			t.Errorf("%s: history %q … %q, want %q … %q", tc.lang, first, last, tc.edition2, tc.edition1)
		}
		if href, _ := editions.First().Find(`[data-testid="method-audit"]`).Attr("href"); !strings.Contains(href, opened.ID) {
			t.Errorf("%s: audit link %q does not name %s", tc.lang, href, opened.ID)
		}
		doc = pageDoc(t, ed, "/r/"+webtest.NewRanking+"/editions/2", tc.lang)
		if got := doc.Find(`[data-testid="edition-methodology"] li`).First().Text(); got != tc.edition2 {
			t.Errorf("%s: edition 2 shows %q, want %q", tc.lang, got, tc.edition2)
		}
	}
}

// pageDoc gets a public page in lang and parses it; it fails unless 200.
func pageDoc(t *testing.T, c *webtest.Client, target, lang string) *goquery.Document {
	t.Helper()
	res, body := c.Do(http.MethodGet, target, nil, http.Header{"Accept-Language": {lang}})
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %.300s", target, res.StatusCode, body)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestAPIMethodologyRefusesBadInputStoringNothing(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	ed := e.Client("ed")
	post := func(m events.Methodology, mutate func(map[string]any)) map[string]any {
		b := map[string]any{"kind": "methodology", "ranking": webtest.NewRanking, "new_ranking": true,
			"title": "Define laptops", "methodology": m, "rationale": "why"}
		if mutate != nil {
			mutate(b)
		}
		return b
	}
	with := func(change func(*events.Methodology)) events.Methodology {
		m := webtest.LaptopMethodology()
		change(&m)
		return m
	}
	jsonOf := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	cases := []struct {
		name   string
		user   string
		body   string
		status int
		field  string // the field the problem names ("": none checked)
	}{
		{"weights not summing to 100", "ed", jsonOf(post(with(func(m *events.Methodology) { m.Criteria[0].Weight = 50 }), nil)),
			http.StatusUnprocessableEntity, "methodology.criteria"},
		{"duplicate slug", "ed", jsonOf(post(with(func(m *events.Methodology) { m.Criteria[1].Slug = "price" }), nil)),
			http.StatusUnprocessableEntity, "methodology.criteria[1].slug"},
		{"scenario naming an unknown criterion", "ed", jsonOf(post(with(func(m *events.Methodology) {
			m.Scenarios[0].Weights = map[string]int{"price": 20, "weight": 80}
		}), nil)), http.StatusUnprocessableEntity, "methodology.scenarios[0]"},
		{"filter requiring an unknown attribute", "ed", jsonOf(post(with(func(m *events.Methodology) {
			m.Filters[0].Options[0].Requires[0].Attribute = "colour"
		}), nil)), http.StatusUnprocessableEntity, "methodology.filters[0]"},
		{"control character in a name", "ed", jsonOf(post(with(func(m *events.Methodology) { m.Criteria[0].Name.En = "Pri\x07ce" }), nil)),
			http.StatusUnprocessableEntity, "methodology.criteria[0].name"},
		{"no rationale", "ed", jsonOf(post(webtest.LaptopMethodology(), func(b map[string]any) { b["rationale"] = " " })),
			http.StatusUnprocessableEntity, "rationale"},
		{"methodology without kind", "ed", jsonOf(post(webtest.LaptopMethodology(), func(b map[string]any) { delete(b, "kind") })),
			http.StatusUnprocessableEntity, "kind"},
		{"unknown kind", "ed", jsonOf(post(webtest.LaptopMethodology(), func(b map[string]any) { b["kind"] = "weights" })),
			http.StatusUnprocessableEntity, "kind"},
		{"existing ranking as new", "ed", jsonOf(post(webtest.LaptopMethodology(), func(b map[string]any) { b["ranking"] = "gpu-cloud" })),
			http.StatusConflict, ""},
		{"invalid UTF-8", "ed", strings.Replace(jsonOf(post(webtest.LaptopMethodology(), nil)), "Laptops", "Lap\xfftops", 1),
			http.StatusBadRequest, ""},
		{"body over the limit", "ed", jsonOf(post(webtest.LaptopMethodology(), func(b map[string]any) {
			b["rationale"] = strings.Repeat("x", 4<<20)
		})), http.StatusRequestEntityTooLarge, ""},
		{"a reviewer opening one", "rev", jsonOf(post(webtest.LaptopMethodology(), nil)), http.StatusForbidden, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := ed
			if tc.user != "ed" {
				c = e.Client(tc.user)
			}
			before := e.LastSeq()
			res, body := c.Do(http.MethodPost, "/api/v1/proposals", strings.NewReader(tc.body),
				http.Header{"Content-Type": {"application/json"}})
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d; body %.400s", res.StatusCode, tc.status, body)
			}
			pr := webtest.DecodeProblem(t, res, body)
			if tc.field != "" && (len(pr.Errors) == 0 || !strings.HasPrefix(pr.Errors[0].Field, tc.field)) {
				t.Errorf("problem names %+v, want %s", pr.Errors, tc.field)
			}
			if after := e.LastSeq(); after != before {
				t.Errorf("stored events %d → %d, want nothing", before, after)
			}
		})
	}
}

func TestAPIMethodologyRetiringACriterionClearsItsScores(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	ed := e.Client("ed")
	var cur api.Methodology
	webtest.APIJSON(t, ed, http.MethodGet, "/api/v1/rankings/"+demo.RankingSlug+"/methodology", nil, http.StatusOK, &cur)
	m := events.Methodology{Title: cur.Title, Description: cur.Description, Categories: cur.Categories,
		Criteria: cur.Criteria, Attributes: cur.Attributes, Scenarios: cur.Scenarios, Filters: cur.Filters,
		Quorum: cur.Quorum, License: cur.License, Illustrative: cur.Illustrative}
	before := e.LastSeq()
	res, body := ed.PostJSON("/api/v1/proposals", map[string]any{"kind": "methodology", "ranking": demo.RankingSlug,
		"title": "Nothing", "methodology": m, "rationale": "Same as now."}, nil)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "methodology.unchanged") || e.LastSeq() != before {
		t.Fatalf("an unchanged methodology: %d %.300s, stored %d → %d", res.StatusCode, body, before, e.LastSeq())
	}
	retired := m.Criteria[len(m.Criteria)-1]
	m.Criteria = slices.Clone(m.Criteria[:len(m.Criteria)-1])
	m.Criteria[0].Weight += retired.Weight
	for i, sc := range m.Scenarios {
		w := maps.Clone(sc.Weights)
		w[m.Criteria[0].Slug] += w[retired.Slug]
		delete(w, retired.Slug)
		m.Scenarios[i].Weights = w
	}
	var opened struct {
		ID string `json:"id"`
	}
	webtest.APIJSON(t, ed, http.MethodPost, "/api/v1/proposals", map[string]any{"kind": "methodology", "ranking": demo.RankingSlug,
		"title": "Retire " + retired.Slug, "methodology": m, "rationale": "No longer measured."}, http.StatusCreated, &opened)
	pv := approveAndPublish(t, e, demo.RankingSlug, opened.ID)
	if pv.Methodology == nil || !slices.ContainsFunc(pv.Methodology.Changes, func(c events.MethodologyChange) bool {
		return c.Kind == "criterion_retired" && c.Target == retired.Slug
	}) {
		t.Fatalf("preview methodology = %+v, want %s retired", pv.Methodology, retired.Slug)
	}
	cleared := 0
	for _, c := range pv.Changes {
		if c.Target == "score:"+retired.Slug && c.ToScore == nil && c.FromScore != nil {
			cleared++
		}
	}
	if cleared == 0 {
		t.Fatalf("preview changes clear no %s score: %+v", retired.Slug, pv.Changes)
	}
	doc := pageDoc(t, ed, "/r/"+demo.RankingSlug+"/editions/"+strconv.Itoa(pv.Number), "en")
	if n := strings.Count(doc.Text(), "cleared (criterion retired)"); n != cleared {
		t.Errorf("the edition page shows %d cleared scores, want %d", n, cleared)
	}
	if !strings.Contains(doc.Find(`[data-testid="edition-methodology"]`).Text(), "Retired the criterion "+retired.Slug) {
		t.Errorf("the edition page's methodology changes: %q", doc.Find(`[data-testid="edition-methodology"]`).Text())
	}
}
