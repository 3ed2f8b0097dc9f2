package desk_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/webtest"
)

// newRankingForm is a small but whole new ranking as the form sends it.
func newRankingForm(slug string, weights ...string) url.Values {
	v := url.Values{
		"new_ranking": {"1"}, "slug": {slug}, "rationale": {"Buyers asked for it"},
		"title.zh": {"向量数据库"}, "title.en": {"Vector databases"},
		"quorum.min_approvals":             {"2"},
		"license":                          {"CC-BY-4.0"},
		"categories[0].slug":               {"managed"},
		"categories[0].name.zh":            {"托管"},
		"categories[0].name.en":            {"Managed"},
		"criteria[0].slug":                 {"speed"},
		"criteria[0].name.zh":              {"速度"},
		"criteria[0].name.en":              {"Speed"},
		"criteria[0].weight":               {weights[0]},
		"criteria[1].slug":                 {""}, // a blank row in between is dropped
		"criteria[2].slug":                 {"price"},
		"criteria[2].name.zh":              {"价格"},
		"criteria[2].name.en":              {"Price"},
		"criteria[2].weight":               {weights[1]},
		"attributes[0].key":                {"hosting"},
		"attributes[0].name.zh":            {"部署"},
		"attributes[0].name.en":            {"Hosting"},
		"attributes[0].values":             {"cloud | 云 | Cloud\nself | 自建 | Self-hosted"},
		"scenarios[0].slug":                {"search"},
		"scenarios[0].name.zh":             {"检索"},
		"scenarios[0].name.en":             {"Search"},
		"scenarios[0].weights":             {"speed=70\nprice=30"},
		"filters[0].key":                   {"where"},
		"filters[0].question.zh":           {"部署在哪里？"},
		"filters[0].question.en":           {"Where does it run?"},
		"filters[0].options":               {"own | 自己的机器 | My machines | hosting=self | 不能自建 | Not self-hostable"},
		httpx.CommandIDField:               {events.NewID(time.Now())},
		"quorum.require_evidence_verified": {"1"},
	}
	return v
}

// TestMethodologyDesk walks an editor through proposing a new ranking and
// a methodology change from the desk, without script.
func TestMethodologyDesk(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	editor := e.Client("editor")

	doc := e.Page(editor, "/desk", http.StatusOK)
	if webtest.TestCount(doc, "new-ranking") != 1 {
		t.Error("the dashboard offers no new ranking to an editor")
	}
	doc = e.Page(editor, "/desk/rankings/new", http.StatusOK)
	if webtest.TestCount(doc, "methodology-form") != 1 || webtest.TestCount(doc, "field-criteria[0].weight") != 1 {
		t.Fatal("the new-ranking page lacks its form")
	}
	e.Page(e.Client("reviewer1"), "/desk/rankings/new", http.StatusForbidden)

	// Weights that do not total 100 are refused, named by their path, and
	// nothing is stored: no empty proposal is left behind.
	doc = e.Refused(editor, "/desk/rankings", newRankingForm("vector-db", "60", "30"), http.StatusUnprocessableEntity)
	if got := webtest.TestText(doc, "field-error-criteria"); !strings.Contains(got, "90") {
		t.Errorf("the weight total error next to criteria says %q, want the total 90", got)
	}
	if webtest.TestCount(doc, "field-criteria[1].weight") != 1 || doc.Find(`[name="criteria[1].weight"]`).AttrOr("value", "") != "30" {
		t.Error("the re-rendered form does not show the compacted rows as sent")
	}
	zh := e.Client("editor")
	zh.Header.Set("Accept-Language", "zh-CN")
	doc = e.Refused(zh, "/desk/rankings", newRankingForm("vector-db", "60", "30"), http.StatusUnprocessableEntity)
	if got := webtest.TestText(doc, "field-error-criteria"); got == "" || !strings.ContainsFunc(got, func(r rune) bool { return r > 0x2e80 }) {
		t.Errorf("the Chinese page's error next to criteria says %q", got)
	}

	// A valid form opens the proposal and proposes the methodology; the
	// same cmd_id again stores nothing more.
	form := newRankingForm("vector-db", "60", "40")
	before := e.LastSeq()
	var id string
	for range 2 {
		status, loc, doc := e.Post(editor, "/desk/rankings", url.Values(cloneValues(form)))
		if status != http.StatusSeeOther {
			t.Fatalf("new ranking: status %d; error %q", status, webtest.TestText(doc, "form-error"))
		}
		id = strings.TrimPrefix(loc, "/desk/proposals/")
	}
	if id != form.Get(httpx.CommandIDField) {
		t.Errorf("the proposal is %q, want the cmd_id %q", id, form.Get(httpx.CommandIDField))
	}
	if got := e.LastSeq() - before; got != 1 {
		t.Errorf("posting the new ranking twice appended %d events, want 1 (the opening carrying the methodology)", got)
	}
	doc = e.Page(editor, "/desk/proposals/"+id, http.StatusOK)
	if webtest.TestCount(doc, "methodology-change-defined") != 1 || webtest.TestText(doc, "methodology-rationale") == "" {
		t.Errorf("the proposal page lacks the definition and the rationale: %q", webtest.TestText(doc, "methodology"))
	}
	if webtest.TestCount(doc, "methodology-edit") != 1 || webtest.TestCount(doc, "score-form") != 0 || webtest.TestCount(doc, "submit") != 1 {
		t.Error("the draft offers no methodology edit, or offers a score form")
	}
	doc = e.Page(editor, "/desk", http.StatusOK)
	item := doc.Find(`[data-testid="queue-my-drafts"] [data-kind="methodology"]`)
	if item.Length() != 1 || !strings.Contains(item.Text(), "new ranking") || !strings.Contains(item.Text(), "Vector databases") {
		t.Errorf("the dashboard lists the new-ranking draft as %q", item.Text())
	}

	// The edit link pre-fills the form with the draft's methodology.
	doc = e.Page(editor, "/desk/rankings/vector-db/methodology?proposal="+id, http.StatusOK)
	vals := webtest.FormValues(doc.Find(`[data-testid="methodology-form"]`))
	if vals.Get("criteria[1].slug") != "price" || vals.Get("scenarios[0].weights") != "speed=70\nprice=30" ||
		!strings.Contains(vals.Get("filters[0].options"), "hosting=self") {
		t.Errorf("the edit form is not pre-filled with the draft: %v", vals)
	}

	// A change to the demo ranking: the form starts from its methodology;
	// graphics takes the weight of delivery and GPUs.
	doc = e.Page(editor, "/desk/rankings/"+webtest.DemoRanking+"/methodology", http.StatusOK)
	vals = webtest.FormValues(doc.Find(`[data-testid="methodology-form"]`))
	if vals.Get("criteria[0].slug") != demo.CritDelivery {
		t.Fatalf("the change form is not pre-filled: criteria[0] is %q", vals.Get("criteria[0].slug"))
	}
	if got := webtest.TestText(doc, "weight-total"); got != "100" {
		t.Errorf("weight total %q, want 100", got)
	}
	for i := range 8 {
		switch vals.Get(at("criteria", i, "slug")) {
		case demo.CritDelivery, demo.CritGPUs:
			vals.Set(at("criteria", i, "weight"), "0")
		case demo.CritGraphics:
			vals.Set(at("criteria", i, "weight"), "40")
		}
	}
	vals.Set("rationale", "Graphics matters most")
	status, loc, doc := e.Post(editor, "/desk/rankings/"+webtest.DemoRanking+"/methodology", vals)
	if status != http.StatusSeeOther {
		t.Fatalf("change: status %d; error %q", status, webtest.TestText(doc, "form-error"))
	}
	doc = e.Page(editor, loc, http.StatusOK)
	for _, want := range []string{"Weight of Graphics & remote desktop 10 → 40", "Weight of Delivery forms 15 → 0"} {
		if !strings.Contains(webtest.TestText(doc, "methodology-changes"), want) {
			t.Errorf("changes %q lack %q", webtest.TestText(doc, "methodology-changes"), want)
		}
	}
	if doc.Find(`[data-testid="moves-overall"] li`).Length() == 0 {
		t.Errorf("the preview shows no entry moving overall: %q", webtest.TestText(doc, "methodology-impact"))
	}
}

func at(list string, i int, field string) string {
	return list + "[" + string(rune('0'+i)) + "]." + field
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}
