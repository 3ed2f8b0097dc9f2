package desk_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestEvidenceFormBilingualClaim: the evidence form has a Chinese and an
// English field for the claim, labelled in the interface language; either
// may stay empty, not both (the error names the claim), and what was typed
// comes back in its field.
func TestEvidenceFormBilingualClaim(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	c := e.Client("editor")
	page := "/desk/proposals/" + webtest.DemoDraft
	for lang, want := range map[string][2]string{"zh": {"中文", "英文"}, "en": {"Chinese", "English"}} {
		c.Header.Set("Accept-Language", lang)
		form := e.Page(c, page, http.StatusOK).Find(`[data-testid="evidence-form"]`)
		for i, l := range []string{"zh", "en"} {
			in := form.Find(`input[name="claim_` + l + `"]`)
			label := form.Find(`label[for="` + in.AttrOr("id", "?") + `"]`).Text()
			if in.Length() != 1 || in.AttrOr("lang", "") != l || label != want[i] {
				t.Errorf("%s UI: field claim_%s (%d) labelled %q, want %q", lang, l, in.Length(), label, want[i])
			}
		}
	}

	c.Header.Set("Accept-Language", "en")
	evidence := func(zh, en string) url.Values {
		return url.Values{"claim_zh": {zh}, "claim_en": {en}, "source_name": {"Price list"},
			"excerpt": {"RTX 4090"}, "observed_on": {"2026-01-01"}}
	}
	doc := e.Refused(c, page+"/evidence", evidence("", " "), http.StatusUnprocessableEntity)
	if got := webtest.TestText(doc, "field-error-claim"); got != "Claim is required in at least one language." {
		t.Errorf("both empty: error %q", got)
	}
	doc = e.Refused(c, page+"/evidence", evidence("按小时计费", strings.Repeat("a", 501)), http.StatusUnprocessableEntity)
	if got := webtest.TestText(doc, "field-error-claim.en"); got == "" {
		t.Error("a too long English claim is not named on its field")
	}
	if got := doc.Find(`input[name="claim_zh"]`).AttrOr("value", ""); got != "按小时计费" {
		t.Errorf("the typed Chinese claim came back as %q", got)
	}

	e.MustPost(c, webtest.DemoDraft, "evidence", evidence("只写中文", ""))
	p, err := e.Cmd.Proposal(e.Ctx, webtest.DemoDraft)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, ev := range p.Evidence {
		found = found || ev.Claim == events.Text{Zh: "只写中文"}
	}
	if !found {
		t.Errorf("the Chinese-only claim was not added: %+v", p.Evidence)
	}
}
