package site

import (
	"encoding/base64"
	"net/url"
	"strconv"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
)

// The ranking API answers a page of rows at a time, as the API's other
// long lists do (GET /api/v1/proposals): ?limit= rows, and a `next` cursor
// passed back as ?after= until the last page, which has none. A ranking of
// 10,000 entries was 7 MB in one answer; the whole edition stays a
// download (ranking.json, ranking.csv). Each page is cached under the
// edition like any API answer, and its cursor is a position in the rank
// order: a page read after a new edition is of that edition, which the
// answer names.

// Page sizes of GET /api/v1/rankings/{slug}.
const (
	defaultStandingLimit = 100
	maxStandingLimit     = 1000
)

// standingPage chooses the rows of a standing answer: From rows skipped,
// at most Limit kept; Limit 0 keeps every row (the static export's file,
// which cannot be asked for pages).
type standingPage struct {
	From, Limit int
}

// standingPageOf reads ?limit= and ?after=. A limit that is not a whole
// number of at least 1, or a cursor that is not one, is malformed (400);
// a limit above maxStandingLimit is capped.
func standingPageOf(q url.Values) (standingPage, error) {
	p := standingPage{Limit: defaultStandingLimit}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return p, &httpx.BadField{Field: "limit", Code: "field.whole_number"}
		}
		p.Limit = min(n, maxStandingLimit)
	}
	if v := q.Get("after"); v != "" {
		n, ok := decodeStandingCursor(v)
		if !ok {
			return p, &httpx.BadField{Field: "after", Code: "field.cursor"}
		}
		p.From = n
	}
	return p, nil
}

// addTo puts the page's parameters in the canonical query q, defaults
// left out (see validator.query).
func (p standingPage) addTo(q url.Values) {
	if p.Limit != defaultStandingLimit {
		q.Set("limit", strconv.Itoa(p.Limit))
	}
	if p.From > 0 {
		q.Set("after", encodeStandingCursor(p.From))
	}
}

// of returns the page's rows and the position the next page starts at;
// 0 when this page is the last.
func (p standingPage) of(rows []projections.StandingRow) ([]projections.StandingRow, int) {
	if p.Limit == 0 {
		return rows, 0
	}
	from := min(p.From, len(rows))
	to := min(from+p.Limit, len(rows))
	if to == len(rows) {
		return rows[from:to], 0
	}
	return rows[from:to], to
}

// A cursor is opaque to clients: the position of the next page's first
// row in the rank order, in unpadded base64url.
func encodeStandingCursor(from int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("r" + strconv.Itoa(from)))
}

func decodeStandingCursor(s string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 2 || b[0] != 'r' {
		return 0, false
	}
	n, err := strconv.Atoi(string(b[1:]))
	return n, err == nil && n > 0 && strconv.Itoa(n) == string(b[1:])
}
