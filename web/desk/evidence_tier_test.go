package desk_test

import (
	"encoding/json"
	"slices"

	"net/http"
	"net/url"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestDeskEvidenceTier: the evidence form offers the provenance tiers; the
// chosen one is recorded and shown; a tier the form does not offer is
// refused with the message in the reader's language, keeping the choice.
// The JSON API takes the same field.
func TestDeskEvidenceTier(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	c := e.Client("editor")
	id := e.OpenProposal(c, "ppio")
	page := "/desk/proposals/" + id
	doc := e.Page(c, page, http.StatusOK)
	var offered []string
	doc.Find(`[data-testid="field-tier"] option`).Each(func(_ int, s *goquery.Selection) {
		offered = append(offered, s.AttrOr("value", "?"))
	})
	if want := []string{"", "vendor", "third_party", "own"}; !slices.Equal(offered, want) {
		t.Errorf("tiers offered %q, want %q", offered, want)
	}

	ev := func(claim, tier string) url.Values {
		return url.Values{"claim": {claim}, "source_name": {"Rental log"}, "excerpt": {"x"}, "observed_on": {"2026-03-01"}, "tier": {tier}}
	}
	e.MustPost(c, id, "evidence", ev("Own", "own"))
	e.MustPost(c, id, "evidence", ev("Unstated", ""))
	doc = e.Refused(c, page+"/evidence", ev("Bad", "press"), http.StatusUnprocessableEntity)
	if got, want := webtest.TestText(doc, "field-error-tier"), `Provenance: "press" is not a provenance tier; choose the vendor's own claim, a third-party report or our own measurement.`; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	res, body := c.PostJSON("/api/v1/proposals/"+id+"/evidence",
		map[string]any{"claim": "Vendor", "source_name": "Price list", "excerpt": "x", "observed_on": "2026-03-01", "tier": "vendor"}, nil)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("API evidence: %d %s", res.StatusCode, body)
	}
	e.CaughtUp()

	p, err := e.Cmd.Proposal(e.Ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range p.Evidence {
		got = append(got, x.Claim.En+":"+x.Tier)
	}
	if want := []string{"Own:own", "Unstated:", "Vendor:vendor"}; !slices.Equal(got, want) {
		t.Errorf("recorded %v, want %v", got, want)
	}
	doc = e.Page(c, page, http.StatusOK)
	shown := webtest.Testids(doc, "evidence-tier", "data-tier")
	if want := []string{"own", "unknown", "vendor"}; !slices.Equal(shown, want) {
		t.Errorf("badges %v, want %v", shown, want)
	}
	var api struct {
		Evidence []struct {
			Tier string `json:"tier"`
		} `json:"evidence"`
	}
	res, body = c.Do(http.MethodGet, "/api/v1/proposals/"+id, nil, nil)
	if err := json.Unmarshal([]byte(body), &api); err != nil || res.StatusCode != http.StatusOK || len(api.Evidence) != 3 || api.Evidence[2].Tier != "vendor" {
		t.Errorf("API proposal: %d %v %+v", res.StatusCode, err, api.Evidence)
	}
}
