package ui

import (
	"net/url"
	"testing"
)

// TestNewPager: the rows a page holds, its links (the first, the last and
// two either side, with gaps), and a page past the last.
func TestNewPager(t *testing.T) {
	href := func(n int) string { return "p" + string(rune('0'+n%10)) }
	p := NewPager(1001, 5, 100, href)
	if p.Pages != 11 || p.From != 401 || p.To != 500 || p.Prev != "p4" || p.Next != "p6" || p.Offset() != 400 {
		t.Errorf("page 5: %+v", p)
	}
	var ns []int
	for _, l := range p.Links {
		if l.Gap {
			ns = append(ns, 0)
		}
		ns = append(ns, l.N)
	}
	if want := []int{1, 0, 3, 4, 5, 6, 7, 0, 11}; len(ns) != len(want) {
		t.Errorf("links %v, want %v", ns, want)
	} else {
		for i := range want {
			if ns[i] != want[i] {
				t.Errorf("links %v, want %v", ns, want)
				break
			}
		}
	}
	if last := NewPager(1001, 11, 100, href); last.From != 1001 || last.To != 1001 || last.Next != "" || last.Beyond() {
		t.Errorf("last page: %+v", last)
	}
	if past := NewPager(1001, 12, 100, href); !past.Beyond() || past.From != 0 {
		t.Errorf("past the last: %+v", past)
	}
	if empty := NewPager(0, 1, 100, href); empty.Pages != 1 || empty.Beyond() || empty.From != 0 || len(empty.Links) != 0 {
		t.Errorf("empty: %+v", empty)
	}
	u, _ := url.Parse("/desk/webhooks?page=3&x=1")
	if got := PageHref(u, 1); got != "/desk/webhooks?x=1" {
		t.Errorf("page 1 href %q", got)
	}
	if got := RequestedPage(url.Values{"page": {"-2"}}); got != 1 {
		t.Errorf("page -2 read as %d", got)
	}
}
