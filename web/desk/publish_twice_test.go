package desk_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections/history"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestPublishAllTwice submits the publish form of a ranking with more
// cross-validated proposals than the form lists by id (it posts "all")
// twice: the second submit, with the same command id (a double click, a
// reload), answers the same 303 to the same edition and stores nothing.
// The same preview posted again under a new command id (a second tab) is
// told that it was already published as edition 1, with a link to it, and
// stores nothing either.
func TestPublishAllTwice(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	slug, _, err := history.LargeRanking(e.Ctx, e.Store, history.ReadyEdition{Entries: 250, Criteria: 2, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	pat := e.Client("pat")
	doc := e.Get(pat, paths.Publish+"?ranking="+slug+"&all=1", http.StatusOK)
	form := webtest.FormValues(webtest.ByTestID(doc, "publish-form-"+slug))
	if form.Get("all") != "1" || len(form["proposals"]) != 0 {
		t.Fatalf("the form posts all=%q and %d ids; want all=1 and none", form.Get("all"), len(form["proposals"]))
	}
	edition := "/r/" + slug + "/editions/1"
	status, loc, _ := e.Post(pat, paths.Publish, form)
	if status != http.StatusSeeOther || loc != edition+"?published=1" {
		t.Fatalf("publish: status %d, Location %q; want 303 to %s", status, loc, edition)
	}
	published := e.LastSeq()

	status, loc, page := e.Post(pat, paths.Publish, form)
	if status != http.StatusSeeOther || loc != edition+"?published=1" {
		t.Errorf("the same submit again: status %d, Location %q, %q; want 303 to %s",
			status, loc, webtest.ByTestID(page, "form-error").Text(), edition)
	}
	if again := e.LastSeq(); again != published {
		t.Errorf("the second submit stored events: sequence %d → %d", published, again)
	}

	// Another tab's form: the same preview, its own command id.
	form.Set("cmd_id", events.NewID(e.Cmd.Now()))
	status, _, page = e.Post(pat, paths.Publish, form)
	already := page.Find(`[data-testid="publish-ranking-` + slug + `"] [data-testid="publish-already"]`)
	if status != http.StatusConflict || !strings.Contains(already.Text(), "edition 1") {
		t.Errorf("another tab: status %d, %q; want 409 saying it was published as edition 1", status, already.Text())
	}
	if href, _ := already.Find("a").Attr("href"); href != edition {
		t.Errorf("the notice links %q, want %s", href, edition)
	}
	if again := e.LastSeq(); again != published {
		t.Errorf("another tab's submit stored events: sequence %d → %d", published, again)
	}
	if ed, _ := e.Cmd.Edition(e.Ctx, slug); ed.Number != 1 {
		t.Errorf("edition %d after three submits, want 1", ed.Number)
	}
}
