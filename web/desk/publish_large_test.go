package desk_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/projections/history"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestDeskPublishLargeEdition shows the publish page for a first edition
// of 2,000 entries (500 under -race) × 10 criteria (20,000 changes, split into parts when
// published): its size in counts and one page of each list — 50
// candidates, changes, new entries and ranked entries, never all of them
// — with pages to walk the rest; the publish form posts "all" rather than
// 2,000 ids and publishes the whole edition. The API's preview pages the
// same lists by 100.
func TestDeskPublishLargeEdition(t *testing.T) {
	if testing.Short() {
		t.Skip("full run only: publishes a 2,000-entry edition; go test -short skips it")
	}
	entries, criteria := 2_000, 10
	if raceEnabled {
		entries = 500 // the same pages and parts, a quarter of the rows
	}
	e := webtest.NewAdmin(t)
	slug, ids, err := history.LargeRanking(e.Ctx, e.Store, history.ReadyEdition{Entries: entries, Criteria: criteria, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	pat := e.Client("pat")

	res, body := pat.Do(http.MethodGet, "/desk/publish", nil, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("publish page: status %d", res.StatusCode)
	}
	doc := webtest.Doc(t, body)
	sec := doc.Find("#ranking-" + slug)
	if msg := sec.Find(`[data-testid="preview-error"]`).Text(); msg != "" {
		t.Fatalf("no preview: %s", msg)
	}
	for sel, want := range map[string]int{
		`[data-testid="preview-ranking"] tbody tr`:              50,
		`[data-testid="preview-changes"] tbody tr`:              50,
		`[data-testid="preview-new-entries"] li`:                50,
		`[data-testid="publish-select"] .check`:                 50,
		`[data-testid="preview-moves"] tbody tr`:                0, // a first edition moves nobody
		`form[data-testid^="publish-form-"] [name="proposals"]`: 0,
		`form[data-testid^="publish-form-"] [name="all"]`:       1,
	} {
		if got := sec.Find(sel).Length(); got != want {
			t.Errorf("%s: %d, want %d", sel, got, want)
		}
	}
	size := sec.Find(`[data-testid="preview-size"]`).Text()
	for _, n := range []int{entries, entries * criteria} {
		if !strings.Contains(size, fmt.Sprint(n)) {
			t.Errorf("size %q does not say %d", size, n)
		}
	}
	if got := sec.Find(`[data-testid="publish-ready-count"]`).Text(); !strings.Contains(got, fmt.Sprint(entries)) {
		t.Errorf("ready count %q", got)
	}
	if len(body) > 400_000 {
		t.Errorf("the page is %d bytes", len(body))
	}
	// The last page of the ranking holds its last 50 entries.
	lastPage := entries / 50
	last := e.Get(pat, fmt.Sprintf("/desk/publish?ranking=%s&all=1&page=%d", slug, lastPage), http.StatusOK).Find("#ranking-" + slug)
	if got := strings.TrimSpace(last.Find(`[data-testid="preview-ranking"] tbody tr td.rank`).First().Text()); got != fmt.Sprint(entries-49) {
		t.Errorf("page %d starts at rank %s, want %d", lastPage, got, entries-49)
	}
	if sec.Find(fmt.Sprintf(`[data-testid="publish-pager"] a[data-testid="publish-page-%d"]`, entries*criteria/50)).Length() == 0 {
		t.Errorf("no link to the last page (of the changes, %d pages of 50)", entries*criteria/50)
	}

	// The API pages the preview by 100, with the sizes whole.
	previewURL := "/api/v1/rankings/" + slug + "/editions/preview"
	if res, _ := pat.PostJSON(previewURL+"?page=0", map[string]any{"proposals": ids}, nil); res.StatusCode != http.StatusBadRequest {
		t.Errorf("page 0: status %d, want 400", res.StatusCode)
	}
	res, raw := pat.PostJSON(previewURL+"?page=3", map[string]any{"proposals": ids}, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("preview: status %d, %.300s", res.StatusCode, raw)
	}
	var pv api.EditionPreview
	if err := json.Unmarshal([]byte(raw), &pv); err != nil {
		t.Fatal(err)
	}
	want, _, err := e.Cmd.PreviewEdition(e.Ctx, slug, ids)
	if err != nil {
		t.Fatal(err)
	}
	if pv.Size == nil || pv.Size.Changes != entries*criteria || pv.Size.NewEntries != entries || pv.Page != 3 || pv.Pages != entries*criteria/100 ||
		len(pv.Changes) != 100 || len(pv.Moves) != 100 || len(pv.NewEntries) != 100 || len(pv.Proposals) != entries {
		t.Fatalf("preview page 3: size %+v, page %d of %d, %d changes, %d moves, %d new entries, %d proposals",
			pv.Size, pv.Page, pv.Pages, len(pv.Changes), len(pv.Moves), len(pv.NewEntries), len(pv.Proposals))
	}
	if c := pv.Changes[0]; c.Proposal != want.Changes[200].Proposal || c.Target != want.Changes[200].Target {
		t.Errorf("page 3 starts with %+v, want change 201 %+v", c, want.Changes[200])
	}

	// Publishing from the page releases every proposal as one edition.
	form := sec.Find(`form[data-testid="publish-form-` + slug + `"]`)
	status, _, _ := e.Post(pat, "/desk/publish", webtest.FormValues(form))
	if status != http.StatusSeeOther {
		t.Fatalf("publish: status %d, want 303", status)
	}
	ed, err := e.Cmd.Edition(e.Ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	if ed.Number != 1 || len(ed.Entries) != entries || ed.Last.Size == nil || ed.Last.Size.Changes != entries*criteria {
		t.Fatalf("edition %d with %d entries, size %+v", ed.Number, len(ed.Entries), ed.Last.Size)
	}
}
