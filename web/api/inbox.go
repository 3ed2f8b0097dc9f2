package api

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/crossrank/crossrank/domain"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// InboxItem is one thing that concerned the user: an action (the event
// at seq, and those up to last_seq of the same actor's burst of work),
// what it meant to them (kind), on which proposals (the first of Count;
// for a schedule that failed, the schedule) and by whom.
type InboxItem struct {
	Seq      uint64 `json:"seq"`
	Kind     string `json:"kind"`
	Ranking  string `json:"ranking"`
	Proposal string `json:"proposal"`
	Actor    string `json:"actor"`
	At       string `json:"at"`
	Detail   string `json:"detail,omitempty"`
	Unread   bool   `json:"unread"`
	Count    int    `json:"count"`
	LastSeq  uint64 `json:"last_seq"`
}

// Inbox is one page of GET /api/v1/inbox, newest first. Next is the cursor
// of the following page (?before=), absent on the last and on numbered
// pages; unread counts every item after read_up_to, the mark POST
// /api/v1/inbox/read moves. Total counts the items the filter selects up
// to upto, the sequence numbered pages (?page=N&upto=S) count from, so a
// page's address answers the same items however many arrive later; since
// counts those that arrived after upto (when the request named it).
type Inbox struct {
	Items    []InboxItem `json:"items"`
	Unread   int         `json:"unread"`
	ReadUpTo uint64      `json:"read_up_to"`
	Newest   uint64      `json:"newest"`
	Next     string      `json:"next,omitempty"`
	Total    int         `json:"total"`
	UpTo     uint64      `json:"upto"`
	Since    int         `json:"since"`
	Page     int         `json:"page,omitempty"`
	Pages    int         `json:"pages,omitempty"`
	PerPage  int         `json:"per_page"`
}

// inbox answers GET /api/v1/inbox?limit=&before= with the caller's inbox.
func inbox(read ReadModels) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f, err := inboxFilterOf(r)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		page, err := read.InboxItems(r.Context(), f)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		per := f.Limit
		if per == 0 {
			per = projections.DefaultInboxLimit
		}
		per = min(per, projections.MaxInboxLimit)
		out := Inbox{Items: []InboxItem{}, Unread: page.Unread, ReadUpTo: page.ReadUpTo, Newest: page.Newest, Total: page.Total,
			UpTo: page.UpTo, Since: page.Since, PerPage: per}
		if f.Page > 0 {
			out.Page, out.Pages = f.Page, max(1, (page.Total+per-1)/per)
			if out.Page > out.Pages {
				ui.Fail(w, r, projections.ErrNotFound)
				return
			}
		}
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
		At: row.At, Detail: row.Detail, Unread: row.LastSeq > readUpTo, Count: row.Count, LastSeq: row.LastSeq}
}

// inboxFilterOf reads ?limit= (a whole number; above 200 is capped),
// ?kind=, and either ?before= (a page's next) or ?page= with ?upto=.
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
	if k := q.Get("kind"); k != "" {
		if !slices.Contains(projections.InboxKinds, k) {
			return f, &httpx.BadField{Field: "kind", Code: "field.inbox_kind", Args: domain.Args{"value": k}}
		}
		f.Kind = k
	}
	for _, p := range []struct {
		name string
		bits int
		set  func(uint64)
	}{{"page", 31, func(n uint64) { f.Page = int(n) }}, {"upto", 63, func(n uint64) { f.UpTo = n }}} {
		if s := q.Get(p.name); s != "" {
			n, err := strconv.ParseUint(s, 10, p.bits)
			if err != nil || n == 0 {
				return f, &httpx.BadField{Field: p.name, Code: "field.whole_number"}
			}
			p.set(n)
		}
	}
	return f, nil
}
