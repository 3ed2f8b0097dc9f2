package desk

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/url"
	"slices"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// inboxView is the model of the signed-in user's inbox: what concerned
// them, newest first, and the box of their private Atom feed.
type inboxView struct {
	ui.Page
	Rows    []inboxRow
	Newest  uint64 // the newest row's sequence: "Mark all read" reads up to it
	Pager   ui.Pager
	Kind    string // the kind the list is filtered to, "" for every kind
	Kinds   []inboxKind
	Since   int    // rows that arrived after the pages' sequence
	Latest  string // the list as it is now, when Since > 0
	HasFeed bool
	FeedURL string // the new feed's address, shown once after it is created
	failed  string
	state   ui.FormState
}

// Form returns the state of the named form after a failed submit.
func (v inboxView) Form(name string) ui.FormState {
	if v.failed == name {
		return v.state
	}
	return ui.FormState{}
}

// inboxKind is one choice of the inbox's filter.
type inboxKind struct {
	Value, Label string
}

// inboxRows is how many rows a page of the inbox lists.
const inboxRows = projections.DefaultInboxLimit

// inboxRow is one inbox item in words: one action, however many
// proposals it concerned (Count).
type inboxRow struct {
	Seq    uint64
	Kind   string
	Count  int
	Text   string
	Detail string
	When   string
	Href   string
	Unread bool
}

// serveInbox shows the signed-in user's inbox.
func (d *Desk) serveInbox(w http.ResponseWriter, r *http.Request) {
	d.renderInbox(w, r, http.StatusOK, inboxView{})
}

// renderInbox fills v with the inbox of the request's user and renders it.
func (d *Desk) renderInbox(w http.ResponseWriter, r *http.Request, status int, v inboxView) {
	ctx := r.Context()
	v.Page = ui.PageOf(r, "desk.inbox.title", "dashboard")
	f, err := inboxFilterOf(r.URL.Query())
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	f.User = v.Page.User.Username
	page, err := d.read.InboxItems(ctx, f)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	v.Pager = anchoredPager(r.URL, page.Total, f.Page, inboxRows, page.UpTo)
	if v.Pager.Beyond() {
		ui.Fail(w, r, projections.ErrNotFound)
		return
	}
	v.Newest, v.Unread, v.Kind, v.Since = page.Newest, page.Unread, f.Kind, page.Since // the count as read with the rows
	if v.Since > 0 {
		v.Latest = latestHref(r.URL)
	}
	v.Kinds = append(v.Kinds, inboxKind{Value: "", Label: v.T("lists.inbox.kind.all")})
	for _, k := range projections.InboxKinds {
		v.Kinds = append(v.Kinds, inboxKind{Value: k, Label: v.T("lists.inbox.kind." + k)})
	}
	for _, row := range page.Rows {
		v.Rows = append(v.Rows, inboxRowOf(v.Page, row, page.ReadUpTo))
	}
	if u, err := d.cmd.User(ctx, v.Page.User.Username); err == nil {
		v.HasFeed = u.FeedTokenHash != ""
	}
	ui.Render(w, r, status, inboxPage(v))
}

// inboxFilterOf reads the inbox page's query: ?kind= (one of
// projections.InboxKinds), ?page= and ?upto=.
func inboxFilterOf(q url.Values) (projections.InboxFilter, error) {
	f := projections.InboxFilter{Kind: q.Get("kind"), Limit: inboxRows}
	if f.Kind != "" && !slices.Contains(projections.InboxKinds, f.Kind) {
		return f, &httpx.BadField{Field: "kind", Code: "field.inbox_kind", Args: domain.Args{"value": f.Kind}}
	}
	var err error
	f.Page, f.UpTo, err = anchoredPage(q)
	return f, err
}

// inboxRowOf puts one inbox item into words; an item of several rows
// says how many proposals its action concerned, and links the first.
func inboxRowOf(p ui.Page, row projections.InboxRow, readUpTo uint64) inboxRow {
	name := row.Title // the proposal by its title, as the other desk pages name it
	if name == "" {
		name = row.Proposal
	}
	out := inboxRow{Seq: row.Seq, Kind: row.Kind, Count: row.Count, Text: p.T("inbox.kind."+row.Kind, row.Actor, name),
		When: p.DateTime(parseTime(row.At)), Unread: row.LastSeq > readUpTo, Href: ProposalPath(row.Proposal)}
	if row.Count > 1 {
		out.Text = p.T("inbox.group."+row.Kind, row.Actor, row.Count, name)
	}
	switch row.Kind {
	case "schedule_failed":
		out.Href = "/desk/publish?ranking=" + url.QueryEscape(row.Ranking)
		out.Detail = scheduleFailure(p.Lang, row.Detail)
	case "published":
		out.Detail = p.T("desk.inbox.edition", row.Detail)
	case "vendor_edition": // a vendor's entry changed: its public page
		out.Href = "/r/" + url.PathEscape(row.Ranking) + "/e/" + url.PathEscape(row.Detail)
		out.Detail = row.Detail
	default:
		out.Detail = row.Detail
	}
	return out
}

// scheduleFailure words why a scheduled edition did not fire: its code is
// a domain error code, which the error catalog words.
func scheduleFailure(lang, code string) string {
	if code == "" {
		return ""
	}
	if i18n.Has(code) {
		// A field rule's words name their field: the edition's proposals.
		words := i18n.Field(lang, &domain.FieldError{Field: "proposals", Code: code})
		return i18n.T(lang, "desk.inbox.schedule_reason", words)
	}
	return i18n.T(lang, "desk.inbox.schedule_reason", code)
}

// inboxRead is where "Mark all read" goes: the inbox again.
func inboxRead(*http.Request, *command.InboxReadInput, handler.Result) string { return paths.Inbox }

// inboxFailed shows the inbox again with the message in the named form.
func inboxFailed[In command.Input](d *Desk, form string) func(http.ResponseWriter, *http.Request, *In, ui.FormState, int) {
	return func(w http.ResponseWriter, r *http.Request, _ *In, st ui.FormState, status int) {
		d.renderInbox(w, r, status, inboxView{failed: form, state: st})
	}
}

// feedTokenCreate draws a new feed token, stores its hash and shows the
// feed's address this once. Like the API's, it takes no command id from
// the form: a retry draws a new token (replacing the first) rather than
// replaying a write whose token is lost.
func (d *Desk) feedTokenCreate(w http.ResponseWriter, r *http.Request) {
	if _, err := httpx.ParseForm(r); err != nil {
		ui.Fail(w, r, err)
		return
	}
	b := make([]byte, 32)
	rand.Read(b)
	token := base64.RawURLEncoding.EncodeToString(b)
	sum := sha256.Sum256([]byte(token))
	in := command.FeedTokenInput{Hash: hex.EncodeToString(sum[:])}
	if _, _, err := command.Execute(d.write, r.Context(), command.SetFeedToken, "", &in, true); err != nil {
		if httpx.Status(err) >= 500 {
			ui.Fail(w, r, err)
			return
		}
		d.renderInbox(w, r, httpx.Status(err), inboxView{failed: "feed",
			state: ui.FormState{Summary: httpx.Message(httpx.Lang(r.Context()), err)}})
		return
	}
	// The same address GET /api/v1/inbox/feed-token answers with.
	user := httpx.User(r.Context()).Username
	feed := absURL(r, "/feeds/inbox/"+user+".atom?token="+url.QueryEscape(token))
	d.renderInbox(w, r, http.StatusCreated, inboxView{FeedURL: feed})
}

// feedTokenRevoked is where a revoked feed goes: the inbox.
func feedTokenRevoked(*http.Request, *command.FeedTokenInput, handler.Result) string {
	return paths.Inbox
}

// absURL makes a path absolute on the request's host, for a feed reader.
func absURL(r *http.Request, path string) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + path
}
