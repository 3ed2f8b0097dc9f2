package api

import (
	"net/http"
	"strconv"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// InboxItem is one thing that concerned the user: an event of the stream
// (seq), what it meant to them (kind), on which proposal (for a schedule
// that failed, the schedule) and by whom.
type InboxItem struct {
	Seq      uint64 `json:"seq"`
	Kind     string `json:"kind"`
	Ranking  string `json:"ranking"`
	Proposal string `json:"proposal"`
	Actor    string `json:"actor"`
	At       string `json:"at"`
	Detail   string `json:"detail,omitempty"`
	Unread   bool   `json:"unread"`
}

// Inbox is one page of GET /api/v1/inbox, newest first. Next is the cursor
// of the following page (?before=), absent on the last; unread counts every
// item after read_up_to, the mark POST /api/v1/inbox/read moves.
type Inbox struct {
	Items    []InboxItem `json:"items"`
	Unread   int         `json:"unread"`
	ReadUpTo uint64      `json:"read_up_to"`
	Next     string      `json:"next,omitempty"`
}

// inbox answers GET /api/v1/inbox?limit=&before= with the caller's inbox.
func inbox(read ReadModels) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f, err := inboxFilterOf(r)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		page, err := read.Inbox(r.Context(), f)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		out := Inbox{Items: []InboxItem{}, Unread: page.Unread, ReadUpTo: page.ReadUpTo}
		if page.Next != 0 {
			out.Next = strconv.FormatUint(page.Next, 10)
		}
		for _, row := range page.Rows {
			out.Items = append(out.Items, inboxItemOf(row, page.ReadUpTo))
		}
		httpx.WriteJSON(w, http.StatusOK, out)
	}
}

func inboxItemOf(row projections.InboxRow, readUpTo uint64) InboxItem {
	return InboxItem{Seq: row.Seq, Kind: row.Kind, Ranking: row.Ranking, Proposal: row.Proposal, Actor: row.Actor,
		At: row.At, Detail: row.Detail, Unread: row.Seq > readUpTo}
}

// inboxFilterOf reads ?limit= (a whole number; above 200 is capped) and
// ?before= (a page's next).
func inboxFilterOf(r *http.Request) (projections.InboxFilter, error) {
	f := projections.InboxFilter{User: httpx.Actor(r.Context()).Name}
	q := r.URL.Query()
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return f, &httpx.BadField{Field: "limit", Code: "field.whole_number"}
		}
		f.Limit = n
	}
	if s := q.Get("before"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil || n == 0 {
			return f, &httpx.BadField{Field: "before", Code: "field.cursor"}
		}
		f.Before = n
	}
	return f, nil
}
