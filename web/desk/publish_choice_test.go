package desk_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// choiceProposals is the size of the ranking TestPublishChoiceAcrossPages
// chooses from: 2,000 cross-validated proposals, 40 pages of 50, as
// TestDeskPublishLargeEdition. The choice's work grows with the pages
// only; 10,000 proposals (about 60,000 events) take longer to generate
// and project than the test's minute on a loaded machine.
const choiceProposals = 2_000

// TestPublishChoiceAcrossPages chooses among 2,000 (400 under -race)
// cross-validated
// proposals, 50 a page, with the publish page's select form as a browser
// without script submits it. Choosing all and unticking two on page 1 and
// one on page 3 leaves those three out, whichever page is shown, with the
// counts; clearing the choice and ticking two on page 1 and one on page 2
// chooses exactly those three. Publishing the first choice releases every
// proposal but the three, as one edition, from a form that posts "all"
// and the three left out rather than 1,997 ids.
func TestPublishChoiceAcrossPages(t *testing.T) {
	if testing.Short() {
		t.Skip("full run only: publishes a choice across pages of a large ranking; go test -short skips it")
	}
	n := choiceProposals
	if raceEnabled {
		n = 400 // eight pages: the choice still spans pages 1 to 3
	}
	start := time.Now()
	lap := func(what string) { t.Logf("%6.2fs %s", time.Since(start).Seconds(), what) }
	e := newAdminEnv(t)
	lap("env")
	slug, ids, err := history.LargeRanking(e.Ctx, e.Store, history.ReadyEdition{Entries: n, Criteria: 1, Seed: 6})
	if err != nil {
		t.Fatal(err)
	}
	lap("generated")
	e.caughtUpLarge()
	lap("projected")
	pat := e.Client("pat")
	sec := func(doc *goquery.Document) *goquery.Selection { return doc.Find("#ranking-" + slug) }
	doc := e.Get(pat, paths.Publish+"?ranking="+slug+"&all=1", http.StatusOK)
	checkChoice(t, sec(doc), "all", n)
	lap("page")

	// All, but two unticked on page 1 and one on page 3.
	page1 := candidateIDs(sec(doc))
	if len(page1) != 50 || page1[0] != ids[0] {
		t.Fatalf("page 1 offers %d candidates from %v; want 50 from %s", len(page1), page1[:min(1, len(page1))], ids[0])
	}
	left := []string{page1[3], page1[7]}
	doc = e.choose(pat, sec(doc), 3, func(v url.Values) { untick(v, left...) })
	checkChoice(t, sec(doc), "all", n-2)
	page3 := candidateIDs(sec(doc))
	if !slices.Contains(ids[100:150], page3[0]) {
		t.Fatalf("page 3 starts with %s", page3[0])
	}
	left = append(left, page3[10])
	doc = e.choose(pat, sec(doc), 1, func(v url.Values) { untick(v, page3[10]) })
	checkChoice(t, sec(doc), "all", n-3)
	for _, id := range left[:2] {
		if _, on := sec(doc).Find(`#p-` + id).Attr("checked"); on {
			t.Errorf("%s, unticked on page 1, is ticked again on coming back", id)
		}
	}
	if size := sec(doc).Find(`[data-testid="preview-size"]`).Text(); !strings.Contains(size, "releases "+strconv.Itoa(n-3)+" proposals") {
		t.Errorf("preview size %q, want %d proposals", size, n-3)
	}
	publish := webtest.FormValues(sec(doc).Find(`form[data-testid="publish-form-` + slug + `"]`))
	if publish.Get("all") != "1" || len(publish["proposals"]) != 0 || !sameSet(publish["except"], left) {
		t.Errorf("the publish form posts all=%q, %d ids, except %v; want all=1 except %v",
			publish.Get("all"), len(publish["proposals"]), publish["except"], left)
	}

	// Cleared, then two ticked on page 1 and one on page 2.
	some := e.choose(pat, sec(doc), 0, func(v url.Values) { v.Set("select", "none") })
	checkChoice(t, sec(some), "some", 0)
	picked := []string{page1[0], page1[49]}
	some = e.choose(pat, sec(some), 2, func(v url.Values) { v["p"] = append(v["p"], picked...) })
	checkChoice(t, sec(some), "some", 2)
	page2 := candidateIDs(sec(some))
	picked = append(picked, page2[5])
	some = e.choose(pat, sec(some), 1, func(v url.Values) { v.Add("p", page2[5]) })
	checkChoice(t, sec(some), "some", 3)
	if size := sec(some).Find(`[data-testid="preview-size"]`).Text(); !strings.Contains(size, "releases 3 proposals") {
		t.Errorf("preview size %q, want 3 proposals", size)
	}
	if got := webtest.FormValues(sec(some).Find(`form[data-testid="publish-form-` + slug + `"]`)); !sameSet(got["proposals"], picked) || got.Get("all") != "" {
		t.Errorf("the publish form posts %v (all=%q), want %v", got["proposals"], got.Get("all"), picked)
	}

	// Publishing the first choice: one edition of all but the three.
	status, loc, page := e.Post(pat, paths.Publish, publish)
	if status != http.StatusSeeOther || loc != "/r/"+slug+"/editions/1?published=1" {
		t.Fatalf("publish: status %d, Location %q, %q", status, loc, page.Find(`[data-testid="form-error"]`).Text())
	}
	lap("published")
	e.caughtUpLarge() // the publish waited for the read models, but only so long
	ed, err := e.Cmd.Edition(e.Ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	released := command.Released(ed)
	if ed.Number != 1 || len(released) != n-3 || slices.ContainsFunc(left, func(id string) bool { return slices.Contains(released, id) }) {
		t.Errorf("edition %d released %d proposals; want 1 releasing %d, none of %v", ed.Number, len(released), n-3, left)
	}
	after := e.Get(pat, paths.Publish+"?ranking="+slug+"&all=1", http.StatusOK)
	if got := candidateIDs(sec(after)); !sameSet(got, left) {
		t.Errorf("still ready after the edition: %v, want %v", got, left)
	}
}

// caughtUpLarge waits until the read models hold every stored event,
// however long a large history takes to project (caughtUp gives up after
// a few seconds).
func (e *adminEnv) caughtUpLarge() {
	e.T.Helper()
	last := e.LastSeq()
	for {
		err := e.Read.WaitFor(e.Ctx, last)
		if err == nil {
			return
		}
		if !errors.Is(err, projections.ErrWaitTimeout) || e.Ctx.Err() != nil {
			e.T.Fatal(err)
		}
	}
}

// choose submits the publish page's select form as a browser does: its
// fields after edit (ticks), with the page button n pressed (0: none).
func (e *adminEnv) choose(c *webtest.Client, sec *goquery.Selection, n int, edit func(url.Values)) *goquery.Document {
	e.T.Helper()
	v := webtest.FormValues(sec.Find(`form[data-testid="publish-select"]`))
	edit(v)
	if n > 0 {
		v.Set("page", strconv.Itoa(n))
	}
	return e.Get(c, paths.Publish+"?"+v.Encode(), http.StatusOK)
}

// checkChoice checks the choice's mode and count as the page states them.
func checkChoice(t *testing.T, sec *goquery.Selection, mode string, chosen int) {
	t.Helper()
	ch := sec.Find(`[data-testid="publish-choice"]`)
	gotMode, _ := ch.Attr("data-mode")
	gotN, _ := ch.Attr("data-chosen")
	if gotMode != mode || gotN != strconv.Itoa(chosen) {
		t.Errorf("choice %s of %s (%q), want %s of %d", gotMode, gotN, strings.TrimSpace(ch.Text()), mode, chosen)
	}
	if strings.Contains(ch.Text(), "the 0 you unticked") {
		t.Errorf("choice %q: names the unticked when there are none", strings.TrimSpace(ch.Text()))
	}
	if want := fmt.Sprintf("; %d in this preview", chosen); chosen > 0 && !strings.Contains(sec.Find(`[data-testid="publish-ready-count"]`).Text(), want) {
		t.Errorf("ready count %q does not say %q", sec.Find(`[data-testid="publish-ready-count"]`).Text(), want)
	}
}

// candidateIDs lists the candidates the page shows.
func candidateIDs(sec *goquery.Selection) []string {
	var out []string
	sec.Find(`[data-testid="publish-select"] input[name="p"][type="checkbox"]`).Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("value")
		out = append(out, id)
	})
	return out
}

// untick removes ids from the form's ticked boxes.
func untick(v url.Values, ids ...string) {
	v["p"] = slices.DeleteFunc(v["p"], func(id string) bool { return slices.Contains(ids, id) })
}

func sameSet(a, b []string) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(id string) bool { return !slices.Contains(b, id) })
}
