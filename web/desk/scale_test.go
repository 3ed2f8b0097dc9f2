package desk_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web/webtest"
)

// TestDeskAtScale reads the desk over a ranking of 10,000 entries (100
// under -short), a fifth of them in review, as newsroom roles do: each
// dashboard's queues count the whole queue and show one page of it, the
// reviewer who approved every ready proposal sees the ones in review, the
// editor's inbox holds the second reviewer's approvals as one item with
// their count (one unread in the header, not 8,000), and the publish page
// shows one page of the ready proposals, counts them all and (at 10,000)
// posts "all".
// Every page stays far below a megabyte.
func TestDeskAtScale(t *testing.T) {
	n := 10_000
	if testing.Short() {
		n = 100
	}
	d := newScaleDesk(t, n)
	inReview, ready := n/5, n-n/5
	get := func(role, target string) string {
		t.Helper()
		code, body := d.get(role, target)
		if code != http.StatusOK {
			t.Fatalf("%s as %s: status %d: %.300s", target, role, code, body)
		}
		if len(body) > 1<<20 {
			t.Errorf("%s as %s: %d bytes", target, role, len(body))
		}
		return body
	}
	queue := func(body, id string) (count string, items int) {
		t.Helper()
		sec := webtest.Doc(t, body).Find(`[data-testid="queue-` + id + `"]`)
		return sec.AttrOr("data-count", ""), sec.Find(`[data-testid="queue-item"]`).Length()
	}
	for _, c := range []struct {
		role, queue  string
		count, items int
	}{
		{"voter", "awaiting-review", inReview, min(inReview, 25)},
		{"reviewer", "awaiting-review", inReview, min(inReview, 25)},
		{"editor", "my-in-review", n, 25},
		{"publisher", "ready-to-publish", ready, 25},
	} {
		count, items := queue(get(c.role, "/desk"), c.queue)
		if count != fmt.Sprint(c.count) || items != c.items {
			t.Errorf("%s's %s: count %s, %d rows; want %d, %d", c.role, c.queue, count, items, c.count, c.items)
		}
	}

	inbox := webtest.Doc(t, get("editor", "/desk/inbox"))
	items := inbox.Find(`[data-testid="inbox-item"]`)
	if items.Length() != 1 || items.AttrOr("data-kind", "") != "cross_validated" || items.AttrOr("data-count", "") != fmt.Sprint(ready) {
		t.Errorf("inbox: %d items, first %s × %s; want one cross_validated × %d",
			items.Length(), items.AttrOr("data-kind", ""), items.AttrOr("data-count", ""), ready)
	}
	if got := strings.TrimSpace(inbox.Find(`[data-testid="inbox-unread"]`).Text()); got != "1" {
		t.Errorf("unread in the header: %q, want 1", got)
	}
	if got := items.Find(`[data-testid="inbox-item-link"]`).Text(); !strings.Contains(got, fmt.Sprint(ready)) {
		t.Errorf("inbox item %q does not say %d", got, ready)
	}

	pub := webtest.Doc(t, get("publisher", "/desk/publish")).Find("#ranking-" + d.slug)
	if got := pub.Find(`[data-testid="publish-ready-count"]`).Text(); !strings.Contains(got, fmt.Sprint(ready)) {
		t.Errorf("ready count %q, want %d", got, ready)
	}
	if got := pub.Find(`[data-testid="publish-select"] .check`).Length(); got != min(ready, 50) {
		t.Errorf("%d candidates shown, want %d", got, min(ready, 50))
	}
	form := pub.Find(`form[data-testid="publish-form-` + d.slug + `"]`)
	if n < 10_000 {
		return // a short list posts its ids
	}
	if form.Find(`[name="all"]`).Length() != 1 || form.Find(`[name="proposals"]`).Length() != 0 {
		t.Errorf("the publish form posts %d ids and all=%d", form.Find(`[name="proposals"]`).Length(), form.Find(`[name="all"]`).Length())
	}
}
