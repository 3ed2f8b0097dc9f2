package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestNamesRefuseControlCharacters (issue 41 item 5): a CR, LF or tab in
// a name — a user's display name, a token's name, a new entry's name, a
// ranking's title, a criterion's or a category's name — is refused with
// 422 naming the field (field.control_char), and nothing is stored.
// Free text (a summary) keeps its line breaks.
func TestNamesRefuseControlCharacters(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	ada, ed := e.Client("ada"), e.Client("ed")

	// The demo ranking's methodology, as a methodology proposal takes it.
	res, raw := ed.Do(http.MethodGet, "/api/v1/rankings/"+webtest.DemoRanking+"/methodology", nil, nil)
	var m api.Methodology
	if err := json.Unmarshal([]byte(raw), &m); res.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("methodology: %d %.300s (%v)", res.StatusCode, raw, err)
	}
	methodology := func(change func(*events.Methodology)) map[string]any {
		out := events.Methodology{Title: m.Title, Description: m.Description, Categories: m.Categories,
			Criteria: append([]events.Criterion(nil), m.Criteria...), Attributes: m.Attributes,
			Scenarios: m.Scenarios, Filters: m.Filters, Quorum: m.Quorum, License: m.License, Illustrative: m.Illustrative}
		out.Categories = append([]events.Category(nil), m.Categories...)
		change(&out)
		return map[string]any{"kind": "methodology", "ranking": webtest.DemoRanking, "title": "Rename",
			"methodology": out, "rationale": "why"}
	}
	newEntry := func(name events.Text) map[string]any {
		return map[string]any{"ranking": webtest.DemoRanking, "entry": "acme-cloud", "title": "Add Acme",
			"new_entry": map[string]any{"name": name, "category": m.Categories[0].Slug, "description": events.Text{En: "A cloud."}}}
	}

	for _, tc := range []struct {
		name   string
		c      *webtest.Client
		target string
		body   any
		field  string // the field named, by its suffix
	}{
		{"display name with CR LF", ada, "/api/v1/users",
			map[string]any{"username": "nina", "display_name": "Nina\r\nBcc: all@example.com", "roles": []string{"editor"}}, "display_name"},
		{"display name with a tab", ada, "/api/v1/users",
			map[string]any{"username": "nina", "display_name": "Nina\tX", "roles": []string{"editor"}}, "display_name"},
		{"token name with LF", ed, "/api/v1/account/tokens", map[string]any{"name": "ci\nrunner", "expires_days": 30}, "name"},
		{"entry name with LF", ed, "/api/v1/proposals", newEntry(events.Text{En: "Acme\nCloud", Zh: "Acme 云"}), "name.en"},
		{"entry name with CR", ed, "/api/v1/proposals", newEntry(events.Text{En: "Acme Cloud", Zh: "Acme\r云"}), "name.zh"},
		{"ranking title with LF", ed, "/api/v1/proposals", methodology(func(x *events.Methodology) { x.Title.En += "\nInjected" }), "title.en"},
		{"criterion name with a tab", ed, "/api/v1/proposals", methodology(func(x *events.Methodology) { x.Criteria[0].Name.En += "\tX" }), "name.en"},
		{"category name with LF", ed, "/api/v1/proposals", methodology(func(x *events.Methodology) { x.Categories[0].Name.Zh += "\n注入" }), "name.zh"},
	} {
		before := e.LastSeq()
		res, raw := tc.c.PostJSON(tc.target, tc.body, nil)
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: status %d, want 422; %.300s", tc.name, res.StatusCode, raw)
			continue
		}
		p := webtest.DecodeProblem(t, res, raw)
		if len(p.Errors) != 1 || !strings.HasSuffix(p.Errors[0].Field, tc.field) || p.Errors[0].Code != "field.control_char" {
			t.Errorf("%s: errors %+v, want field.control_char on …%s", tc.name, p.Errors, tc.field)
		}
		if after := e.LastSeq(); after != before {
			t.Errorf("%s: stored events %d → %d, want nothing", tc.name, before, after)
		}
	}

	// Free text keeps its line breaks: a summary of two lines is taken.
	body := newEntry(events.Text{En: "Acme Cloud", Zh: "Acme 云"})
	body["summary"] = "Line one.\r\nLine two."
	if res, raw := ed.PostJSON("/api/v1/proposals", body, nil); res.StatusCode != http.StatusCreated {
		t.Errorf("an entry with a summary of two lines: status %d, want 201; %.300s", res.StatusCode, raw)
	}
}
