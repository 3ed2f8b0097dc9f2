package desk

import (
	"cmp"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// auditFilterNames are the query parameters a filter reads, in the order
// links write them.
var auditFilterNames = []string{"ranking", "entry", "proposal", "actor", "type", "from", "to"}

// AuditFilterOf reads the filters and the page (?page=, ?upto=, ?limit=)
// from the audit page's query, which its downloads share (they ignore the
// page). A sequence or limit that is not a number is malformed (400); a
// bad day is reported by the query (422).
func AuditFilterOf(q url.Values) (projections.AuditFilter, error) {
	f := projections.AuditFilter{
		Ranking: strings.TrimSpace(q.Get("ranking")), Entry: strings.TrimSpace(q.Get("entry")),
		Proposal: strings.TrimSpace(q.Get("proposal")), Actor: strings.TrimSpace(q.Get("actor")),
		Type: strings.TrimSpace(q.Get("type")), From: strings.TrimSpace(q.Get("from")), To: strings.TrimSpace(q.Get("to")),
	}
	// An older version of a type (a bookmarked vote_cast.v1) filters as
	// the current one, which the type list offers and links write.
	if cur, ok := events.Current(f.Type); ok {
		f.Type = cur
	}
	var err error
	if f.Page, f.UpTo, err = anchoredPage(q); err != nil {
		return f, err
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return f, &httpx.BadField{Field: "limit", Code: "field.whole_number"}
		}
		f.Limit = n
	}
	return f, nil
}

// auditQuery writes f's filters (not its cursor) as a query.
func auditQuery(f projections.AuditFilter) url.Values {
	q := url.Values{}
	for i, v := range []string{f.Ranking, f.Entry, f.Proposal, f.Actor, f.Type, f.From, f.To} {
		if v != "" {
			q.Set(auditFilterNames[i], v)
		}
	}
	return q
}

// auditURL is the audit page for f's filters with extra parameters set.
func auditURL(f projections.AuditFilter, extra ...string) string {
	q := auditQuery(f)
	for i := 0; i+1 < len(extra); i += 2 {
		q.Set(extra[i], extra[i+1])
	}
	if len(q) == 0 {
		return paths.Audit
	}
	return paths.Audit + "?" + q.Encode()
}

// serveAudit shows a page of the trail, or exports the selection
// (?format=csv or ?format=json).
func (d *Desk) serveAudit(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Has("format") {
		d.serveAuditExport(w, r)
		return
	}
	d.renderAudit(w, r, nil)
}

// renderAudit shows the trail for the request's filters, with the outcome
// of a verification when one just ran.
func (d *Desk) renderAudit(w http.ResponseWriter, r *http.Request, ver *auditVerifyView) {
	v := auditView{Page: ui.PageOf(r, "audit.title", "audit")}
	v.Seq, v.Head = d.read.Checkpoint()
	v.CanVerify = d.verify != nil
	v.Verify = ver
	if ver == nil {
		v.Verify = d.lastVerify(v.Lang)
	}
	status := http.StatusOK
	var q url.Values
	if r.Method == http.MethodGet {
		q = r.URL.Query()
	}
	f, err := AuditFilterOf(q)
	v.Filter = f
	if err == nil {
		var page projections.AuditPage
		page, err = d.read.Audit(r.Context(), f)
		v.Rows = auditRowsOf(page.Rows, v.Page)
		// The links keep the filters as the form writes them (a current
		// type for an older one), and the limit when one was asked.
		base, _ := url.Parse(auditURL(f))
		if f.Limit > 0 {
			q := base.Query()
			q.Set("limit", strconv.Itoa(f.Limit))
			base.RawQuery = q.Encode()
		}
		v.Pager = anchoredPager(base, page.Total, f.Page, auditLimit(f), page.UpTo)
		if err == nil && v.Pager.Beyond() {
			ui.Fail(w, r, projections.ErrNotFound)
			return
		}
		if v.Since = page.Since; v.Since > 0 {
			v.Latest = latestHref(base)
		}
	}
	if err != nil {
		if httpx.Status(err) >= 500 {
			ui.Fail(w, r, err)
			return
		}
		status, v.Error = httpx.Status(err), httpx.Message(v.Lang, err)
	}
	if v.Types, err = d.read.AuditTypes(r.Context()); err != nil {
		ui.Fail(w, r, err)
		return
	}
	if v.Actors, err = d.read.AuditActors(r.Context()); err != nil {
		ui.Fail(w, r, err)
		return
	}
	v.CSVURL, v.JSONURL = auditURL(f, "format", "csv"), auditURL(f, "format", "json")
	ui.Render(w, r, status, auditPage(v))
}

// auditView is the model of the audit page.
type auditView struct {
	ui.Page
	Filter    projections.AuditFilter
	Types     []string
	Actors    []string
	Rows      []auditRowView
	Pager     ui.Pager
	Since     int    // rows that arrived after the pages' sequence
	Latest    string // the trail as it is now, when Since > 0
	CSVURL    string
	JSONURL   string
	Error     string // why the filters could not be applied
	Seq       uint64 // the read models' checkpoint
	Head      string // the audit chain head at Seq
	CanVerify bool
	Verify    *auditVerifyView // nil: not verified since the server started
}

// auditLimit is how many rows a page of f lists, as the read models bound it.
func auditLimit(f projections.AuditFilter) int {
	return min(cmp.Or(f.Limit, projections.DefaultAuditLimit), projections.MaxAuditLimit)
}

// auditRowView is one row of the trail in the reader's language.
type auditRowView struct {
	Seq         uint64
	At          string // date and time in the reader's language
	ISO         string // machine-readable time
	Actor       string
	ActorURL    string // the trail filtered to this actor
	Via         string // how the actor signed in, in words; "" for events that do not say
	ViaMethod   string // "session", "token", "cli"; "" when unknown
	ViaRaw      string // the ce-authvia attribute as stored
	Type        string
	TypeLabel   string
	Summary     string
	Before      string
	After       string
	Subject     string
	SubjectURL  string // "" when the subject has no page
	EntryLabel  string // the entry a proposal event concerns, "" for none
	EntryURL    string
	Hash        string
	ShortHash   string
	HasBeforeTo bool
}

// auditTypeLabel names an event type in lang: "Vote cast" for
// crossrank.proposal.vote_cast.v1 and .v2 alike; an unknown type keeps its name.
func auditTypeLabel(lang, typ string) string {
	kind, name, _, err := events.ParseType(typ)
	if err != nil {
		return typ
	}
	key := "audit.type." + string(kind) + "." + name
	if i18n.Has(key) {
		return i18n.T(lang, key)
	}
	return typ
}

// auditValue translates a before or after value when it is a status, a
// role or a verdict; other values (scores, tags, hashes) are shown as they are.
func auditValue(lang, v string) string {
	for _, prefix := range []string{"status.", "role.", "audit.verdict."} {
		if i18n.Has(prefix + v) {
			return i18n.T(lang, prefix+v)
		}
	}
	return v
}

func auditRowsOf(rows []projections.AuditRow, p ui.Page) []auditRowView {
	out := make([]auditRowView, 0, len(rows))
	for _, r := range rows {
		v := auditRowView{Seq: r.Seq, At: p.DateTime(r.At), ISO: r.At.UTC().Format("2006-01-02T15:04:05Z"),
			Actor: r.Actor, ActorURL: auditURL(projections.AuditFilter{Actor: r.Actor}),
			Type: r.Type, TypeLabel: auditTypeLabel(p.Lang, r.Type), Summary: i18n.AuditLine(p.Lang, r.Msg, r.Args),
			Before: auditValue(p.Lang, r.Before), After: auditValue(p.Lang, r.After), Hash: r.Hash}
		v.HasBeforeTo = r.Before != "" || r.After != ""
		if v.HasBeforeTo && v.Before == "" {
			v.Before = "–"
		}
		if v.HasBeforeTo && v.After == "" {
			v.After = "–"
		}
		if len(r.Hash) > 12 {
			v.ShortHash = r.Hash[:12] + "…"
		}
		v.Via, v.ViaMethod, v.ViaRaw = auditVia(p, r.AuthVia), "", r.AuthVia
		if via, err := events.ParseVia(r.AuthVia); err == nil {
			v.ViaMethod = via.Method
		}
		v.Subject, v.SubjectURL = auditSubject(r, p)
		if r.Proposal != "" && r.Entry != "" && r.Ranking != "" {
			v.EntryLabel, v.EntryURL = p.T("audit.subject.entry", r.Entry), entryURL(r.Ranking, r.Entry)
		}
		out = append(out, v)
	}
	return out
}

// auditVia puts how an event's actor signed in into words: "via session",
// "via token ‘ci-bot’ (id …)", "via command line". Events stored before
// the attribute existed say nothing; a value this version cannot read
// (another writer's) is shown as it is.
func auditVia(p ui.Page, raw string) string {
	via, err := events.ParseVia(raw)
	switch {
	case raw == "":
		return ""
	case err != nil:
		return p.T("audit.via.other", raw)
	case via.Method == events.ViaToken:
		return p.T("audit.via.token", via.TokenName, via.TokenID)
	case via.Method == events.ViaOIDC:
		return p.T("audit.via.oidc", via.Issuer)
	}
	return p.T("audit.via." + via.Method)
}

// auditSubject names what an event is about and links to its page.
func auditSubject(r projections.AuditRow, p ui.Page) (string, string) {
	switch {
	case r.Proposal != "":
		return p.T("audit.subject.proposal", r.Proposal), proposalURL(r.Proposal)
	case r.Entry != "" && r.Ranking != "":
		return p.T("audit.subject.entry", r.Entry), entryURL(r.Ranking, r.Entry)
	case r.Kind == string(events.KindUser):
		if p.Has(domain.RoleAdmin) {
			return p.T("audit.subject.user", r.Aggregate), paths.Users + "#user-" + r.Aggregate
		}
		return p.T("audit.subject.user", r.Aggregate), ""
	case r.Kind == string(events.KindEdition) && r.Ranking != "":
		return p.T("audit.subject.editions", r.Ranking), "/r/" + url.PathEscape(r.Ranking) + "/editions"
	case r.Ranking != "":
		return p.T("audit.subject.ranking", r.Ranking), "/r/" + url.PathEscape(r.Ranking)
	}
	return r.Aggregate, ""
}
