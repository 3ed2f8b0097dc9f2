package desk_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/webtest"
)

func TestDeskEntryPage(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	c := e.Client("rev") // any signed-in user
	target := "/desk/entries/" + demo.RankingSlug + "/qingjiao"
	doc := e.Get(c, target, http.StatusOK)

	ev, err := e.Read.Entry(e.Ctx, demo.RankingSlug, "qingjiao")
	if err != nil {
		t.Fatal(err)
	}
	if name := webtest.ByTestID(doc, "entry-name").Text(); name != ev.Name.En {
		t.Errorf("entry name %q, want %q", name, ev.Name.En)
	}
	// Every criterion is listed; the held-back onboarding score is not published yet.
	def, _, err := e.Read.Definition(e.Ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	for _, cr := range def.Criteria {
		if webtest.ByTestID(doc, "score-"+cr.Slug).Length() != 1 {
			t.Errorf("criterion %s missing", cr.Slug)
		}
	}
	if webtest.ByTestID(doc, "score-"+demo.CritOnboarding).Find(`[data-testid="score-missing"]`).Length() != 1 {
		t.Error("the unpublished onboarding score is shown as published")
	}
	if len(ev.Scores) == 0 {
		t.Fatal("qingjiao has no published score")
	}
	for _, sc := range ev.Scores {
		sec := webtest.ByTestID(doc, "score-"+sc.Criterion)
		if got := strings.TrimSpace(sec.Find(`[data-testid="score-value"]`).Text()); got != strconv.Itoa(sc.Score) {
			t.Errorf("%s: shows %q, published %d", sc.Criterion, got, sc.Score)
		}
		for _, ev := range sc.Evidence {
			if sec.Find(`[data-testid="evidence-`+ev.ID+`"]`).Length() == 0 {
				t.Errorf("%s: evidence %s of %s not shown", sc.Criterion, ev.ID, ev.Proposal)
			}
		}
	}
	// Open proposals, history and the editions that changed it.
	if webtest.ByTestID(doc, "entry-open").Find(`[data-testid="entry-proposal-`+webtest.DemoReady+`"]`).Length() != 1 {
		t.Error("the open proposal is not listed")
	}
	if webtest.ByTestID(doc, "entry-proposals-all").Find(`[data-testid="entry-proposal-demo-qingjiao-1"]`).Length() != 1 {
		t.Error("the published proposal is not in the history")
	}
	if webtest.ByTestID(doc, "entry-edition-1").Length() != 1 {
		t.Error("edition 1 is not in the history")
	}

	// In Chinese, the criteria are named in Chinese.
	doc = e.Get(c, target+"?lang=zh", http.StatusOK)
	if h := webtest.ByTestID(doc, "score-"+demo.CritOnboarding).Find("h3").Text(); !strings.Contains(h, "上手便利") {
		t.Errorf("Chinese criterion %q", h)
	}

	e.Get(c, "/desk/entries/"+demo.RankingSlug+"/no-such-entry", http.StatusNotFound)
	e.Get(c, "/desk/entries/no-such-ranking/qingjiao", http.StatusNotFound)
	if res, _ := e.Client("").Do(http.MethodGet, target, nil, nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("signed out: status %d", res.StatusCode)
	}
}

// TestDeskEntryProposeLink shows the propose link only to editors: a
// reviewer or a publisher following it would land on a 403.
func TestDeskEntryProposeLink(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	target := "/desk/entries/" + demo.RankingSlug + "/qingjiao"
	for _, user := range []string{"rev", "pat"} {
		doc := e.Get(e.Client(user), target, http.StatusOK)
		if n := webtest.ByTestID(doc, "entry-propose").Length(); n != 0 {
			t.Errorf("%s (no editor role) sees %d propose links", user, n)
		}
	}
	for _, user := range []string{"ed", "pia"} {
		doc := e.Get(e.Client(user), target, http.StatusOK)
		href, _ := webtest.ByTestID(doc, "entry-propose").Attr("href")
		u, err := url.Parse(href)
		if err != nil || u.Path != "/desk/proposals/new" || u.Query().Get("ranking") != demo.RankingSlug || u.Query().Get("entry") != "qingjiao" {
			t.Errorf("%s: propose link %q", user, href)
			continue
		}
		e.Get(e.Client(user), href, http.StatusOK) // the link leads somewhere the editor may go
	}
}
