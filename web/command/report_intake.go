package command

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// The intake of readers' reports: the one write anyone may make, without an
// account, through the form on a public entry page or its JSON twin. What
// the reader says becomes an event; the contact address does not — it goes
// to Contacts, which can expire and erase it.

// MaxReportBody bounds a report's request body, well under MaxBody: a
// report is a few thousand characters.
const MaxReportBody = 32 << 10

// MaxContact bounds a contact address, the longest an email address can be.
const MaxContact = 254

// HoneypotField is the form field people never see (a hidden, labelled
// "leave empty" input): a form that fills it is a robot's, answered as if
// accepted and stored nowhere.
const HoneypotField = "homepage"

// Contacts keeps readers' contact addresses outside the event log.
type Contacts interface {
	Put(ctx context.Context, key string, value []byte) error
}

// ReportThrottle limits reports per client address (auth.ReportThrottle).
type ReportThrottle interface {
	Take(addr string, now time.Time) (wait time.Duration, ok bool)
}

var (
	errReportsTooMany  = httpx.NewError("report.too_many", "too many reports from this address", httpx.ErrTooMany)
	errReportTooLarge  = httpx.NewError("report.too_large", "report body too large", &http.MaxBytesError{Limit: MaxReportBody})
	errContactsMissing = fmt.Errorf("command: no contacts bucket to keep the contact address in")
)

// ReportInput is a reader's report as the JSON API takes it; the ranking
// comes from the path.
type ReportInput struct {
	Ranking   string `json:"-"`
	Entry     string `json:"entry"`
	Criterion string `json:"criterion,omitempty"`
	Evidence  string `json:"evidence,omitempty"`
	Kind      string `json:"kind"`
	Text      string `json:"text"`
	Contact   string `json:"contact,omitempty"`
}

// ReportCreated is the API's answer to a report.
type ReportCreated struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Folded bool   `json:"folded"` // the same report came earlier in the window: counted on it
}

// takeReport counts a report against its client's throttle, before its
// body is read: a client past its reports costs nothing more to refuse.
func (d *Deps) takeReport(r *http.Request) error {
	if d.ReportThrottle == nil {
		return nil
	}
	if wait, ok := d.ReportThrottle.Take(httpx.FromContext(r.Context()).Client, d.Now()); !ok {
		return &httpx.RetryLater{After: wait, Err: errReportsTooMany}
	}
	return nil
}

// openReport checks the contact, opens (or folds) the report and keeps the
// contact address apart. The throttle was taken before the body was read.
func (d *Deps) openReport(r *http.Request, in ReportInput) (handler.ReportOutcome, error) {
	ctx := r.Context()
	if err := checkContact(in.Contact); err != nil {
		return handler.ReportOutcome{}, err
	}
	if in.Contact != "" && d.Contacts == nil {
		return handler.ReportOutcome{}, errContactsMissing
	}
	out, err := d.Commands.OpenReport(ctx, domain.OpenReport{Ranking: in.Ranking, Entry: in.Entry,
		Criterion: in.Criterion, Evidence: in.Evidence, Kind: in.Kind, Text: in.Text})
	if err != nil {
		return out, err
	}
	id := out.ID
	if in.Contact != "" {
		// After the event: an address is never kept for a report that was
		// refused. Should this put fail, the report stands without it.
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		if err := d.Contacts.Put(ctx, id+"."+hex.EncodeToString(b), []byte(in.Contact)); err != nil {
			d.Log.Warn("report contact not kept", "request_id", httpx.RequestID(ctx), "report", id, "err", err)
		}
	}
	d.Log.Info("report", "request_id", httpx.RequestID(ctx), "report", id, "folded", out.Folded, "sequence", out.Sequence)
	d.waitFor(ctx, out.Sequence)
	return out, nil
}

// checkContact checks a contact address: optional, valid UTF-8, one line,
// at most MaxContact characters.
func checkContact(s string) error {
	if !utf8.ValidString(s) {
		return domain.Invalid("contact", "field.not_utf8", nil)
	}
	if n := utf8.RuneCountInString(s); n > MaxContact {
		return domain.Invalid("contact", "field.too_long", domain.Args{"length": n, "limit": MaxContact})
	}
	for _, c := range s {
		if unicode.IsControl(c) {
			return domain.Invalid("contact", "field.control_char", nil)
		}
	}
	return nil
}

// limitReport caps a report's body at MaxReportBody and reports a larger
// one as errReportTooLarge.
func limitReport(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, MaxReportBody)
}

func reportErr(err error) error {
	if httpx.Status(err) == http.StatusRequestEntityTooLarge {
		return errReportTooLarge
	}
	return err
}

// ReportJSON answers POST /api/v1/rankings/{slug}/reports: 201 with the
// report's id, for anyone, signed in or not.
func ReportJSON(d *Deps) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := d.takeReport(r); err != nil {
			ui.Fail(w, r, err)
			return
		}
		limitReport(w, r)
		var in ReportInput
		if err := httpx.DecodeJSON(r, &in); err != nil {
			ui.Fail(w, r, reportErr(err))
			return
		}
		in.Ranking = r.PathValue("slug")
		out, err := d.openReport(r, in)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		httpx.WriteJSON(w, http.StatusCreated, ReportCreated{ID: out.ID, Status: domain.ReportOpen, Folded: out.Folded})
	})
}

// ReportForm answers POST /r/{slug}/e/{entry}/reports, the form on the
// entry page: 303 back to the entry page, which thanks the reader.
func ReportForm(d *Deps) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := d.takeReport(r); err != nil {
			ui.Fail(w, r, err)
			return
		}
		limitReport(w, r)
		f, err := httpx.ParseForm(r)
		if err != nil {
			ui.Fail(w, r, reportErr(err))
			return
		}
		slug, entry := r.PathValue("slug"), r.PathValue("entry")
		back := "/r/" + url.PathEscape(slug) + "/e/" + url.PathEscape(entry) + "#report-sent"
		if f.Str(HoneypotField) != "" {
			http.Redirect(w, r, back, http.StatusSeeOther)
			return
		}
		in := ReportInput{Ranking: slug, Entry: entry, Criterion: f.Str("criterion"), Evidence: f.Str("evidence"),
			Kind: f.Str("kind"), Text: f.Str("text"), Contact: f.Str("contact")}
		if _, err := d.openReport(r, in); err != nil {
			ui.Fail(w, r, err)
			return
		}
		http.Redirect(w, r, back, http.StatusSeeOther)
	})
}
