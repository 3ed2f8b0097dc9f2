package api_test

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain/demo"
)

// checkCorrectionsFeed reads the corrections log's Atom feed in both
// languages after TestReportTriage decided three reports: one entry per
// report, newest decision first, the accepted one linking the edition that
// published it, the declined one its reason, never the reporter.
func checkCorrectionsFeed(t *testing.T, e *reportEnv, accepted, declined string, edition int) {
	t.Helper()
	type entry struct {
		ID    string `xml:"id"`
		Title string `xml:"title"`
		Link  struct {
			Href string `xml:"href,attr"`
		} `xml:"link"`
		Summary string `xml:"summary"`
	}
	type feed struct {
		XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
		Lang    string   `xml:"lang,attr"`
		ID      string   `xml:"id"`
		Entries []entry  `xml:"entry"`
	}
	path := "/r/" + demo.RankingSlug + "/corrections.atom"
	for _, lang := range []string{"en", "zh-CN"} {
		res, body := e.Get(path, "Accept-Language", lang)
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/atom+xml") {
			t.Fatalf("%s: corrections feed: %d %s", lang, res.StatusCode, res.Header.Get("Content-Type"))
		}
		var f feed
		if err := xml.Unmarshal([]byte(body), &f); err != nil {
			t.Fatalf("%s: corrections feed: %v\n%s", lang, err, body)
		}
		if f.ID != "urn:crossrank:corrections:"+demo.RankingSlug || len(f.Entries) != 3 {
			t.Fatalf("%s: feed %q with %d entries, want 3", lang, f.ID, len(f.Entries))
		}
		byID := map[string]entry{}
		for _, x := range f.Entries {
			byID[strings.TrimPrefix(x.ID, "urn:crossrank:report:")] = x
		}
		a, ok := byID[accepted]
		if !ok || !strings.HasSuffix(a.Link.Href, fmt.Sprintf("/r/%s/editions/%d", demo.RankingSlug, edition)) ||
			!strings.HasPrefix(a.Link.Href, "http") {
			t.Errorf("%s: accepted report's feed entry %+v, want a link to edition %d", lang, a, edition)
		}
		if d := byID[declined]; !strings.Contains(d.Title, "Our description quotes the vendor.") {
			t.Errorf("%s: declined report's feed entry %+v lacks the reason", lang, d)
		}
		if strings.Contains(body, "someone@example.org") || strings.Contains(body, "192.0.2.") {
			t.Errorf("%s: the feed shows the reporter", lang)
		}
	}
	if res, _ := e.Get("/r/no-such-ranking/corrections.atom"); res.StatusCode != http.StatusNotFound {
		t.Errorf("corrections feed of no ranking: %d", res.StatusCode)
	}
	doc := e.Page("/r/"+demo.RankingSlug+"/corrections", "Accept-Language", "en")
	if href, _ := doc.Find(`[data-testid="corrections-feed"]`).Attr("href"); href != path {
		t.Errorf("the corrections page links the feed %q, want %q", href, path)
	}
}

// checkReportsNav: the desk's navigation leads editors to the queue of
// readers' reports, and only editors (the queue answers them only).
func checkReportsNav(t *testing.T, e *reportEnv, editor, reviewer string) {
	t.Helper()
	for _, c := range []struct {
		who, auth string
		want      int
	}{{"editor", editor, 1}, {"reviewer", reviewer, 0}} {
		doc := e.Page("/desk", "Authorization", c.auth)
		if n := doc.Find(`[data-testid="nav-reports"][href="/desk/reports"]`).Length(); n != c.want {
			t.Errorf("%s's desk nav links the reports queue %d times, want %d", c.who, n, c.want)
		}
	}
}
