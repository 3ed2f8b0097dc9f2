package desk

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/csvsafe"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// auditCSVHeader names the export's columns: the audit row as stored
// (msg and args say what the event did), then text, the row's words in
// the reader's language.
var auditCSVHeader = []string{"seq", "at", "actor", "kind", "aggregate", "type", "event_id",
	"msg", "args", "before", "after", "ranking", "entry", "proposal", "hash", "authvia", "text"}

// serveAuditExport streams every row matching the filters, newest first,
// as CSV (?format=csv) or JSON (?format=json, the API's default). Pages
// and limits do not apply: an export is the whole selection; JSON with
// ?page= answers one page instead (serveAuditPage). The chain
// head and sequence the rows were read at travel in headers (and in the
// JSON).
//
// It answers both GET /api/v1/audit and the audit page's ?format=
// download. The desk owns this one API read, not web/api: it is the audit
// page's selection (the same filters, read by AuditFilterOf) in another
// format, and the two must not drift apart.
func (d *Desk) serveAuditExport(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	format := q.Get("format")
	if format == "" && httpx.IsAPI(r) {
		format = "json"
	}
	if format != "csv" && format != "json" {
		ui.Fail(w, r, &httpx.BadField{Field: "format", Code: "field.export_format"})
		return
	}
	f, err := AuditFilterOf(q)
	if err == nil {
		err = f.Check()
	}
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	if n, err := strconv.Atoi(q.Get("page")); q.Has("page") && (err != nil || n < 1) {
		ui.Fail(w, r, &httpx.BadField{Field: "page", Code: "field.whole_number"})
		return
	}
	if q.Has("page") && format == "json" {
		d.serveAuditPage(w, r, f)
		return
	}
	seq, head := d.read.Checkpoint()
	lang := httpx.Lang(r.Context())
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Crossrank-Audit-Seq", strconv.FormatUint(seq, 10))
	h.Set("X-Crossrank-Audit-Head", head)
	name := fmt.Sprintf("crossrank-audit-%d.%s", seq, format)
	bw := bufio.NewWriterSize(w, 32<<10)
	if format == "csv" {
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
		err = writeAuditCSV(bw, lang, func(fn func(projections.AuditRow) error) error { return d.read.AuditEach(r.Context(), f, fn) })
	} else {
		h.Set("Content-Type", "application/json; charset=utf-8")
		if !httpx.IsAPI(r) {
			h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
		}
		err = writeAuditJSON(bw, lang, seq, head, func(fn func(projections.AuditRow) error) error {
			return d.read.AuditEach(r.Context(), f, fn)
		})
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		// The status has gone out; the export ends short, which a client
		// sees (a JSON document that does not parse, a CSV row cut off).
		d.log.Error("audit export failed", "request_id", httpx.RequestID(r.Context()), "format", format, "err", err)
	}
}

// writeAuditCSV writes the header and every row each yields.
func writeAuditCSV(w *bufio.Writer, lang string, each func(func(projections.AuditRow) error) error) error {
	cw := csvsafe.NewWriter(w, false) // every cell guarded against formula injection
	if err := cw.Write(auditCSVHeader); err != nil {
		return err
	}
	err := each(func(r projections.AuditRow) error {
		rec := []string{strconv.FormatUint(r.Seq, 10), r.At.UTC().Format(time.RFC3339Nano), r.Actor, r.Kind,
			r.Aggregate, r.Type, r.EventID, r.Msg, string(r.Args), r.Before, r.After, r.Ranking, r.Entry, r.Proposal, r.Hash,
			r.AuthVia, i18n.AuditLine(lang, r.Msg, r.Args)}
		return cw.Write(rec)
	})
	cw.Flush()
	if err != nil {
		return err
	}
	return cw.Error()
}

// auditJSONHead opens the JSON export; rows follow, then "]}".
type auditJSONHead struct {
	Seq  uint64 `json:"seq"`  // the read models' checkpoint the rows were read at
	Head string `json:"head"` // the audit chain head at seq
}

// auditJSONRow is an audit row as the JSON export and the API write it:
// the row as stored, with its words in the reader's language.
type auditJSONRow struct {
	projections.AuditRow
	Text string `json:"text"` // i18n.AuditLine of Msg and Args
}

// auditJSONRows words rows in lang.
func auditJSONRows(lang string, rows []projections.AuditRow) []auditJSONRow {
	out := make([]auditJSONRow, len(rows))
	for i, r := range rows {
		out[i] = auditJSONRow{AuditRow: r, Text: i18n.AuditLine(lang, r.Msg, r.Args)}
	}
	return out
}

// writeAuditJSON writes {"seq":…,"head":…,"rows":[…]} one row at a time.
func writeAuditJSON(w *bufio.Writer, lang string, seq uint64, head string, each func(func(projections.AuditRow) error) error) error {
	b, err := json.Marshal(auditJSONHead{Seq: seq, Head: head})
	if err != nil {
		return err
	}
	w.Write(b[:len(b)-1]) // without the closing brace
	w.WriteString(`,"rows":[`)
	first := true
	err = each(func(r projections.AuditRow) error {
		if !first {
			w.WriteByte(',')
		}
		first = false
		b, err := json.Marshal(auditJSONRow{AuditRow: r, Text: i18n.AuditLine(lang, r.Msg, r.Args)})
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	_, err = w.WriteString("]}\n")
	return err
}

// auditJSONPage is one numbered page of the trail as JSON: the audit
// page's rows and counts. Total rows match the filters up to upto, the
// sequence the pages count from (pass it back so that a page keeps its
// rows while events arrive); since counts those that arrived after it.
type auditJSONPage struct {
	auditJSONHead
	Rows    []auditJSONRow `json:"rows"`
	Total   int            `json:"total"`
	Page    int            `json:"page"`
	Pages   int            `json:"pages"`
	PerPage int            `json:"per_page"`
	UpTo    uint64         `json:"upto"`
	Since   int            `json:"since"`
}

// serveAuditPage answers GET /api/v1/audit?page=N[&upto=S][&limit=L]:
// the page the audit page shows for the same query; a page past the last
// is 404, as on the page.
func (d *Desk) serveAuditPage(w http.ResponseWriter, r *http.Request, f projections.AuditFilter) {
	seq, head := d.read.Checkpoint()
	page, err := d.read.Audit(r.Context(), f)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	per := auditLimit(f)
	out := auditJSONPage{auditJSONHead: auditJSONHead{Seq: seq, Head: head},
		Rows: auditJSONRows(httpx.Lang(r.Context()), page.Rows), Total: page.Total,
		Page: f.Page, Pages: max(1, (page.Total+per-1)/per), PerPage: per, UpTo: page.UpTo, Since: page.Since}
	if out.Page > out.Pages {
		ui.Fail(w, r, projections.ErrNotFound)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Crossrank-Audit-Seq", strconv.FormatUint(seq, 10))
	w.Header().Set("X-Crossrank-Audit-Head", head)
	httpx.WriteJSON(w, http.StatusOK, out)
}
