package desk_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestInvisibleCharacters: a name with a bidirectional override is refused
// with a field error in both languages; a claim keeps it, and the page
// shows the claim in an element of its own direction (dir="auto"), so the
// override cannot reorder the words around it.
func TestInvisibleCharacters(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	c := e.Client("editor")

	doc := e.Refused(c, "/desk/proposals", url.Values{"ranking": {webtest.DemoRanking}, "entry": {"qingjiao"},
		"title": {"Update \u202eduolc"}}, http.StatusUnprocessableEntity)
	want := "Title contains an invisible formatting character (a bidirectional control or a zero-width character)."
	if got := webtest.TestText(doc, "form-error") + webtest.TestText(doc, "field-error-title"); !strings.Contains(got, want) {
		t.Errorf("title error %q, want %q", got, want)
	}
	if got, want := httpx.Message(i18n.Zh, domain.Invalid("name.en", "field.invisible_char", nil)),
		"名称（英文）含有不可见的格式字符（双向控制符或零宽字符）。"; got != want {
		t.Errorf("Chinese: %q, want %q", got, want)
	}

	claim := "price \u202ecut"
	e.MustPost(c, webtest.DemoDraft, "evidence", url.Values{"claim": {claim}, "source_name": {"Vendor \u202enote"},
		"section": {"\u2067§2"}, "excerpt": {"x"}, "observed_on": {time.Now().Format(time.DateOnly)}})
	doc = e.Page(c, "/desk/proposals/"+webtest.DemoDraft, http.StatusOK)
	found := false
	doc.Find(`[data-testid="evidence-claim"]`).Each(func(_ int, s *goquery.Selection) {
		if s.Text() != claim {
			return
		}
		found = true
		if s.AttrOr("dir", "") != "auto" {
			h, _ := goquery.OuterHtml(s)
			t.Errorf("the claim is not isolated: %s", h)
		}
	})
	if !found {
		t.Fatal("the claim with an override is not shown as typed")
	}
	if doc.Find(`bdi:contains("§2")`).Length() != 1 {
		t.Error("the section is not isolated in a <bdi>")
	}
}
