package desk_test

import (
	"github.com/crossrank/crossrank/web/webtest"
	"net/http"
	"net/url"
	"testing"
)

// TestMethodologyRowsWithoutScript grows and shrinks the new-ranking
// form's criteria by its submit buttons, as a browser without a script
// does: each press comes back with what was typed, one row more or less,
// and stores nothing.
func TestMethodologyRowsWithoutScript(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	editor := e.Client("editor")
	doc := e.Page(editor, "/desk/rankings/new", http.StatusOK)
	if n := doc.Find(`[data-testid^="criteria-"]`).Length(); n != 1 {
		t.Fatalf("a new form shows %d criteria rows, want 1", n)
	}
	before := e.LastSeq()
	form := url.Values{"new_ranking": {"1"}, "slug": {"vector-db"}, "title.en": {"Vector databases"},
		"criteria[0].slug": {"speed"}, "criteria[0].weight": {"60"}, "add": {"criteria"}}
	status, _, doc := e.Post(editor, "/desk/rankings", form)
	if status != http.StatusOK {
		t.Fatalf("add a row: status %d", status)
	}
	if n := doc.Find(`[data-testid^="criteria-"]`).Length(); n != 2 {
		t.Errorf("after adding a row: %d criteria rows, want 2", n)
	}
	if got := doc.Find(`[name="criteria[0].slug"]`).AttrOr("value", ""); got != "speed" {
		t.Errorf("criteria[0].slug = %q after adding a row, want what was typed", got)
	}
	if got := doc.Find(`[name="slug"]`).AttrOr("value", ""); got != "vector-db" {
		t.Errorf("slug = %q after adding a row, want what was typed", got)
	}

	// The next press sends the blank row too: three rows.
	form.Set("criteria[1].slug", "")
	_, _, doc = e.Post(editor, "/desk/rankings", form)
	if n := doc.Find(`[data-testid^="criteria-"]`).Length(); n != 3 {
		t.Errorf("after adding a second row: %d criteria rows, want 3", n)
	}

	// Removing the first row moves the second up.
	form = url.Values{"new_ranking": {"1"}, "slug": {"vector-db"}, "criteria[0].slug": {"speed"},
		"criteria[1].slug": {"price"}, "criteria[1].weight": {"40"}, "remove": {"criteria[0]"}}
	_, _, doc = e.Post(editor, "/desk/rankings", form)
	if got := doc.Find(`[name="criteria[0].slug"]`).AttrOr("value", ""); got != "price" {
		t.Errorf("after removing row 0, criteria[0].slug = %q, want price", got)
	}
	if got := doc.Find(`[name="criteria[0].weight"]`).AttrOr("value", ""); got != "40" {
		t.Errorf("after removing row 0, criteria[0].weight = %q, want 40", got)
	}
	if n := doc.Find(`[data-testid^="criteria-"]`).Length(); n != 2 {
		t.Errorf("after removing a row: %d criteria rows, want 2 (one and a blank)", n)
	}
	if n := e.LastSeq(); n != before {
		t.Errorf("adding and removing rows stored events: stream %d → %d", before, n)
	}
}
