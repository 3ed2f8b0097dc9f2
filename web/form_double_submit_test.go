package web

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// TestFormDoubleSubmitIsOneEvent posts the same form (and cmd_id) twice
// through command.Form, as a double click would.
func TestFormDoubleSubmitIsOneEvent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var failures []ui.FormState
	e.srv.mux.Handle("POST /test/proposals/{id}/evidence", command.Form(e.srv.commands, command.AddEvidence,
		func(r *http.Request, in *command.AddEvidenceInput, _ handler.Result) string {
			return "/desk/proposals/" + in.Proposal
		},
		func(w http.ResponseWriter, r *http.Request, _ *command.AddEvidenceInput, st ui.FormState, status int) {
			failures = append(failures, st)
			w.WriteHeader(status)
		}))
	c := e.client()
	c.login("alice")
	id := e.openProposal(c, "eta")
	form := url.Values{"claim": {"fast"}, "source_name": {"Overview"}, "excerpt": {"fast"}, "observed_on": {"2026-02-01"},
		httpx.CommandIDField: {events.NewID(time.Now())}}
	before := e.lastSeq()
	for range 2 {
		res, body := c.postForm("/test/proposals/"+id+"/evidence", form)
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/desk/proposals/"+id {
			t.Fatalf("status %d Location %q: %s", res.StatusCode, res.Header.Get("Location"), body)
		}
	}
	if got := e.lastSeq() - before; got != 1 {
		t.Errorf("two submits appended %d events, want 1", got)
	}

	// A failing submit re-renders with the field marked, and nothing is stored.
	form.Set(httpx.CommandIDField, events.NewID(time.Now()))
	form.Set("valid_for_days", "soon")
	res, _ := c.postForm("/test/proposals/"+id+"/evidence", form)
	if res.StatusCode != http.StatusUnprocessableEntity || len(failures) != 1 || failures[0].Error("valid_for_days") == "" ||
		failures[0].CommandID != form.Get(httpx.CommandIDField) || failures[0].Value("claim") != "fast" {
		t.Errorf("status %d, failures %+v", res.StatusCode, failures)
	}
	if got := e.lastSeq() - before; got != 1 {
		t.Errorf("a failed submit appended events")
	}
}
