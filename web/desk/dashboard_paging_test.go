package desk

import (
	"fmt"
	"net/url"
	"testing"
)

// TestPageSection: each dashboard queue pages by its own parameter, keeps
// the other queues' pages in its links, and shows the last page for a
// number past it.
func TestPageSection(t *testing.T) {
	items := func(n int) []queueItem {
		var out []queueItem
		for i := range n {
			out = append(out, queueItem{Title: fmt.Sprint(i + 1)})
		}
		return out
	}
	for _, c := range []struct {
		query       string
		first, last string
		page        int
	}{
		{"", "1", "25", 1},
		{"page-awaiting-review=3&page-my-drafts=2", "51", "60", 3},
		{"page-awaiting-review=9", "51", "60", 3},
		{"page-awaiting-review=x", "1", "25", 1},
	} {
		u, _ := url.Parse("/desk?" + c.query)
		sec := queueSection{ID: "awaiting-review", Items: items(60)}
		pageSection(u, &sec)
		if sec.Pager.Total != 60 || sec.Pager.Page != c.page || sec.Items[0].Title != c.first || sec.Items[len(sec.Items)-1].Title != c.last {
			t.Errorf("%q: page %d of %d, items %s–%s", c.query, sec.Pager.Page, sec.Pager.Total, sec.Items[0].Title, sec.Items[len(sec.Items)-1].Title)
		}
	}
	u, _ := url.Parse("/desk?page-my-drafts=2")
	sec := queueSection{ID: "awaiting-review", Items: items(60)}
	pageSection(u, &sec)
	if sec.Pager.Next != "/desk?page-awaiting-review=2&page-my-drafts=2#queue-awaiting-review" {
		t.Errorf("next %q", sec.Pager.Next)
	}
}
