package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestAPIBilingualClaims: a claim or a rationale is sent as {zh, en} or,
// as clients did before issue 43, as one string, read as the language it
// is written in; the answer gives both languages. Neither form nor both
// empty is refused, naming the field.
func TestAPIBilingualClaims(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("alice")
	id := e.OpenProposal(c, "bilingual")
	target := "/api/v1/proposals/" + id
	for _, claim := range []any{
		map[string]string{"zh": "按小时计费", "en": "Billed by the hour"},
		"裸金属 / Bare metal",
		"TCP / UDP",
	} {
		webtest.APIJSON(t, c, http.MethodPost, target+"/evidence", map[string]any{"claim": claim, "source_name": "s",
			"excerpt": "x", "observed_on": "2026-01-01"}, http.StatusCreated, nil)
	}
	for _, tt := range []struct {
		body, field, code string
		want              int
	}{
		{`{"claim": 5, "source_name": "s", "excerpt": "x", "observed_on": "2026-01-01"}`, "claim", "field.bilingual", 400},
		{`{"claim": {"zh": "", "en": " "}, "source_name": "s", "excerpt": "x", "observed_on": "2026-01-01"}`, "claim", "field.required_in_one", 422},
		{`{"claim": {"zh": "a", "de": "b"}, "source_name": "s", "excerpt": "x", "observed_on": "2026-01-01"}`, "de", "field.unknown", 400},
		{`{"claim": {"zh": "a", "zh": "b"}, "source_name": "s", "excerpt": "x", "observed_on": "2026-01-01"}`, "claim.zh", "field.duplicate_key", 400},
	} {
		res, body := c.PostJSON(target+"/evidence", tt.body, nil)
		if res.StatusCode != tt.want || !strings.Contains(body, `"field":"`+tt.field+`"`) || !strings.Contains(body, `"code":"`+tt.code+`"`) {
			t.Errorf("%s: status %d, want %d with %s %s: %s", tt.body, res.StatusCode, tt.want, tt.field, tt.code, body)
		}
	}
	webtest.APIJSON(t, c, http.MethodPost, target+"/changes", map[string]any{"criterion": "speed", "to": 7,
		"rationale": map[string]string{"zh": "实测更快"}, "evidence": []string{"e1"}}, http.StatusOK, nil)
	webtest.APIJSON(t, c, http.MethodPost, target+"/changes", map[string]any{"attribute": "billing", "to": []string{"hourly"},
		"rationale": "Listed on the price page", "evidence": []string{"e1"}}, http.StatusOK, nil)

	var p api.Proposal
	webtest.APIJSON(t, c, http.MethodGet, target, nil, http.StatusOK, &p)
	var claims []events.Text
	for _, ev := range p.Evidence {
		claims = append(claims, ev.Claim)
	}
	want := []events.Text{{Zh: "按小时计费", En: "Billed by the hour"}, {Zh: "裸金属", En: "Bare metal"}, {En: "TCP / UDP"}}
	if len(claims) != len(want) || claims[0] != want[0] || claims[1] != want[1] || claims[2] != want[2] {
		t.Errorf("claims %+v, want %+v", claims, want)
	}
	if len(p.Scores) != 1 || p.Scores[0].Rationale != (events.Text{Zh: "实测更快"}) {
		t.Errorf("scores %+v", p.Scores)
	}
	if len(p.Attributes) != 1 || p.Attributes[0].Rationale != (events.Text{En: "Listed on the price page"}) {
		t.Errorf("attributes %+v", p.Attributes)
	}
}
