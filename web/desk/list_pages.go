package desk

import (
	"net/url"
	"strconv"

	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// The inbox and the audit trail grow at their newest end, and list newest
// first: counted from the top, page 2 would show other rows each time an
// event arrived. Their pages are therefore counted from a sequence, the
// newest row when the list was opened, which every page link carries
// (?page=N&upto=S): a page's address always shows the same rows, and a
// link offers what arrived since.

// uptoParam names the sequence a list's pages count from.
const uptoParam = "upto"

// anchoredPage reads ?page= (as ui.RequestedPage: 1 when absent or not a
// positive number) and ?upto= (0 when absent; anything but a whole number
// is a bad field).
func anchoredPage(q url.Values) (int, uint64, error) {
	var upto uint64
	if s := q.Get(uptoParam); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, 0, &httpx.BadField{Field: uptoParam, Code: "field.whole_number"}
		}
		upto = n
	}
	return ui.RequestedPage(q), upto, nil
}

// anchoredPager pages a list of total rows counted from upto, per a page:
// its links are base's address with page and upto set, so they keep base's
// filters.
func anchoredPager(base *url.URL, total, page, per int, upto uint64) ui.Pager {
	at := *base
	q := at.Query()
	if upto > 0 {
		q.Set(uptoParam, strconv.FormatUint(upto, 10))
	}
	at.RawQuery = q.Encode()
	return ui.NewPager(total, page, per, func(n int) string { return ui.PageHref(&at, n) })
}

// latestHref is base's address without its page and sequence: the list as
// it is now.
func latestHref(base *url.URL) string {
	q := base.Query()
	q.Del(ui.PageParam)
	q.Del(uptoParam)
	u := url.URL{Path: base.Path, RawQuery: q.Encode()}
	return u.String()
}
