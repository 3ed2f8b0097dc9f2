package command

import (
	"net/http"

	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// Response is the JSON answer to a write.
type Response struct {
	ID       string   `json:"id"`       // what the command wrote: a proposal id, an edition number
	Command  string   `json:"command"`  // the command id; send it again to retry safely
	Sequence uint64   `json:"sequence"` // stream sequence of the last event stored
	Events   []string `json:"events,omitempty"`
	Replayed bool     `json:"replayed,omitempty"` // a retry: nothing new was stored
}

// ReadModelsHeader is set on a write's answer, to ReadModelsBehind, when
// the write is stored but this server's read models did not show it
// within the wait: read-your-writes failed, and the next page or GET may
// not show it yet (a cluster replica whose own disk is full, or one far
// behind the stream; its /readyz says so too).
const (
	ReadModelsHeader = "X-Crossrank-Read-Models"
	ReadModelsBehind = "behind"
)

// JSON serves act on the JSON API: the session or a bearer token
// signs the user in (401 otherwise); the body decodes strictly; the
// Idempotency-Key header or the body's "id" is the command id; after the
// command it waits for the read models unless ?nowait=1.
func JSON[In Input](d *Deps, act Action[In]) http.Handler {
	return d.RequireUser(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in In
		if err := httpx.DecodeJSON(r, &in); err != nil {
			ui.Fail(w, r, err)
			return
		}
		if act.Path != nil {
			act.Path(r, &in)
		}
		requested := r.Header.Get("Idempotency-Key")
		if body := in.RequestedCommandID(); body != "" {
			if requested != "" && requested != body {
				ui.Fail(w, r, &httpx.BadField{Field: "id", Code: "field.id_mismatch"})
				return
			}
			requested = body
		}
		res, commandID, shown, err := execute(d, r.Context(), act, requested, &in, r.URL.Query().Get("nowait") != "1")
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		if !shown {
			w.Header().Set(ReadModelsHeader, ReadModelsBehind)
		}
		id, loc := act.Resource(d, r.Context(), &in, commandID)
		if loc != "" {
			w.Header().Set("Location", loc)
		}
		status := http.StatusOK
		switch {
		case act.NoContent:
			w.WriteHeader(http.StatusNoContent)
			return
		case act.Created:
			status = http.StatusCreated
		}
		if act.Status != nil {
			status = act.Status(&in)
		}
		if act.Answer != nil {
			httpx.WriteJSON(w, status, act.Answer(d, r.Context(), &in, commandID, res))
			return
		}
		httpx.WriteJSON(w, status, Response{ID: id, Command: commandID, Sequence: res.Sequence, Events: res.EventIDs, Replayed: res.Replayed})
	}))
}

// Form serves act for an HTML form: the form decodes (400, 413 and
// 415 show the error page), the command runs with the form's cmd_id, the
// handler waits for the read models and answers 303 See Other to done's
// address. A command that fails calls failed with the form's state and the
// status, to re-render the form with the message; nil shows the error page.
func Form[In Input](d *Deps, act Action[In],
	done func(r *http.Request, in *In, res handler.Result) string,
	failed func(w http.ResponseWriter, r *http.Request, in *In, st ui.FormState, status int),
) http.Handler {
	return d.RequireUser(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := httpx.ParseForm(r)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		var in In
		act.Form(f, &in)
		if act.Path != nil {
			act.Path(r, &in)
		}
		err = f.Err()
		var res handler.Result
		shown := true
		if err == nil {
			res, _, shown, err = execute(d, r.Context(), act, f.CommandID(), &in, true)
		}
		if err != nil {
			if failed == nil || httpx.Status(err) >= 500 {
				ui.Fail(w, r, err)
				return
			}
			failed(w, r, &in, ui.FormStateOf(httpx.Lang(r.Context()), f, err), httpx.Status(err))
			return
		}
		to := done(r, &in, res)
		if !shown {
			to = ui.WithBehind(to)
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
	}))
}
