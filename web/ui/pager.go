package ui

import (
	"net/url"
	"strconv"
)

// Pager is one page of a long list: which rows it shows of how many, and
// the links to the other pages. Its links keep every other parameter of
// the list's URL (its filters), so a page can be shared and reloaded.
// The zero Pager is a list that fits one page (the partial shows nothing).
type Pager struct {
	Page    int // 1-based
	Pages   int // at least 1
	Total   int // rows in the whole list
	PerPage int
	From    int // the first row shown, 1-based; 0 when the list is empty
	To      int // the last row shown
	Prev    string
	Next    string
	Links   []PageLink // the first, the last and the pages around this one
}

// PageLink is one numbered link of a Pager; Gap marks an elision before it.
type PageLink struct {
	N       int
	Href    string
	Current bool
	Gap     bool
}

// PageParam is the query parameter that names the page.
const PageParam = "page"

// RequestedPage reads ?page=N from q: 1 when absent or not a positive
// number, so any shared URL shows a page.
func RequestedPage(q url.Values) int {
	n, err := strconv.Atoi(q.Get(PageParam))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// NewPager returns page (1-based) of a list of total rows, perPage a page;
// href returns the link to page n. A page past the last is kept as asked
// (Beyond reports it), so the caller decides between 404 and the last page.
func NewPager(total, page, perPage int, href func(n int) string) Pager {
	p := Pager{Page: max(page, 1), Total: total, PerPage: perPage, Pages: max(1, (total+perPage-1)/perPage)}
	if total > 0 && p.Page <= p.Pages {
		p.From = (p.Page-1)*perPage + 1
		p.To = min(total, p.Page*perPage)
	}
	if p.Pages == 1 {
		return p
	}
	if p.Page > 1 {
		p.Prev = href(min(p.Page-1, p.Pages))
	}
	if p.Page < p.Pages {
		p.Next = href(p.Page + 1)
	}
	last := 0
	for n := 1; n <= p.Pages; n++ {
		if n != 1 && n != p.Pages && (n < p.Page-2 || n > p.Page+2) {
			continue
		}
		p.Links = append(p.Links, PageLink{N: n, Href: href(n), Current: n == p.Page, Gap: last != 0 && n != last+1})
		last = n
	}
	return p
}

// Offset is the number of rows before the page, for LIMIT/OFFSET.
func (p Pager) Offset() int { return (p.Page - 1) * p.PerPage }

// Beyond reports whether the page asked for is past the last one.
func (p Pager) Beyond() bool { return p.Page > p.Pages }

// PageHref returns base with ?page=n set (and removed for page 1, so the
// first page has one address), keeping base's other parameters.
func PageHref(base *url.URL, n int) string {
	q := base.Query()
	if n <= 1 {
		q.Del(PageParam)
	} else {
		q.Set(PageParam, strconv.Itoa(n))
	}
	u := url.URL{Path: base.Path, RawQuery: q.Encode()}
	return u.String()
}

// pagingLabel names a pager's landmark, after its list when of is set.
func pagingLabel(p Page, of string) string {
	if of == "" {
		return p.T("paging.label")
	}
	return p.T("paging.label_of", of)
}
