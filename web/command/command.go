// Package command is the one write path of the site: each use case is an
// Action, run the same way whether a JSON body (JSON) or an HTML form
// (Form) asked for it — command id, domain command, then the wait for the
// read models so the next read shows the write.
package command

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// waitBudget bounds how long a write waits for the read models before it
// answers anyway: the write is stored; only the next page may lag.
const waitBudget = 2 * time.Second

// Waiter reports when the read models have applied an event: a handler that
// ran a command waits for its sequence before answering, so the next page
// shows the write (read-your-writes).
type Waiter interface {
	// WaitFor blocks until the event at seq is applied or ctx ends.
	WaitFor(ctx context.Context, seq uint64) error
}

// PublishContext gives the publish command what only the read models know.
type PublishContext interface {
	// AuditHead returns the audit chain head and the sequence it covers.
	AuditHead(ctx context.Context) (head string, seq uint64, err error)
	// CrossValidated lists the ids of the ranking's cross-validated proposals.
	CrossValidated(ctx context.Context, ranking string) ([]string, error)
}

// Deps is what the actions need. Commands, Now, Log and RequireUser are
// required; the rest have working zero values, noted on the field.
type Deps struct {
	// Commands runs the domain commands.
	Commands *handler.Handler
	// Waiter gives read-your-writes; nil: answer without waiting.
	Waiter Waiter
	// Publish feeds the publish command; nil: no audit head, and no other
	// cross-validated proposal is checked for a changed baseline.
	Publish PublishContext
	// Now is the clock the command ids are drawn with.
	Now func() time.Time
	// Log receives a line per command.
	Log *slog.Logger
	// RequireUser signs the user in (the session or a bearer token) or
	// answers 401/redirects; the caller's guard, so that command need not
	// know how sign-in works.
	RequireUser func(http.Handler) http.Handler
	// Comments holds each user to a rate of new comments; nil: no rate.
	Comments *Rate
	// Contacts keeps readers' contact addresses, apart from the events;
	// nil: a report that gives one is refused (500), none is lost quietly.
	Contacts Contacts
	// ReportThrottle limits readers' reports per address; nil: no limit.
	ReportThrottle ReportThrottle
	// Observe records a command's outcome and duration; nil: nothing.
	Observe func(name string, took time.Duration, res handler.Result, err error)
}

// Input is the constraint on a command's input: it may carry its own
// command id (the JSON body's "id").
type Input interface{ RequestedCommandID() string }

// WithCommandID is the optional "id" of a JSON command body, the same as the
// Idempotency-Key header: the command id as the client chose it (see
// httpx.CommandID). Every input embeds it.
type WithCommandID struct {
	CommandID string `json:"id,omitempty"`
}

// RequestedCommandID returns the command id the client chose, or "".
func (w WithCommandID) RequestedCommandID() string { return w.CommandID }

// Action is one write use case, shared by the JSON API and the HTML forms.
// Its input decodes from JSON (struct tags) or from a form (Form); Path
// fills in the ids named in the URL; Run issues the domain command. The
// same Execute then waits for the read models, whoever asked.
type Action[In Input] struct {
	Name    string
	Created bool // the API answers 201 Created rather than 200 OK
	Path    func(r *http.Request, in *In)
	Form    func(f *httpx.Form, in *In)
	Run     func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *In) (handler.Result, error)
	// Resource names what the command wrote, for the API's answer: an id
	// and the address to read it at.
	Resource func(d *Deps, ctx context.Context, in *In, commandID string) (id, location string)
	// NoContent: the API answers 204 No Content, with no body.
	NoContent bool
	// Answer, when set, is the API's body instead of a Response: for a
	// resource whose state the client needs at once (a schedule's moment).
	Answer func(d *Deps, ctx context.Context, in *In, commandID string, res handler.Result) any
	// Status, when set, is the API's status for a command that ran, in
	// place of 200 or 201 (a batch whose items failed answers 207).
	Status func(in *In) int
	// Wait bounds how long the answer waits for the read models to apply
	// the write; 0: waitBudget. A write whose projection takes long (an
	// edition of thousands of entries) waits longer, so the address it
	// answers with shows it.
	Wait time.Duration
}

// Execute runs act for the signed-in user: command id (from the one the
// client requested, if any), command, then the wait for the read models
// (unless wait is false). It returns the command id it used.
func Execute[In Input](d *Deps, ctx context.Context, act Action[In], requested string, in *In, wait bool) (handler.Result, string, error) {
	res, commandID, _, err := execute(d, ctx, act, requested, in, wait)
	return res, commandID, err
}

// execute is Execute, also saying whether this server's read models
// showed the write within the wait: false when they did not (a replica
// whose own disk is full, or far behind), so the answer can say that the
// next page may not show it yet. Without a wait it is true.
func execute[In Input](d *Deps, ctx context.Context, act Action[In], requested string, in *In, wait bool) (handler.Result, string, bool, error) {
	a := httpx.Actor(ctx)
	commandID, err := httpx.CommandID(a.Name, requested, d.Now())
	if err != nil {
		return handler.Result{}, "", true, err
	}
	start := time.Now()
	res, err := act.Run(d, ctx, a, commandID, in)
	if d.Observe != nil {
		d.Observe(act.Name, time.Since(start), res, err)
	}
	if err != nil {
		return res, commandID, true, err
	}
	d.Log.Info("command", "request_id", httpx.RequestID(ctx), "action", act.Name, "user", a.Name,
		"command_id", commandID, "sequence", res.Sequence, "replayed", res.Replayed)
	shown := true
	if wait {
		shown = d.waitWithin(ctx, res.Sequence, cmp.Or(act.Wait, waitBudget))
	}
	return res, commandID, shown, nil
}

// waitFor waits, bounded by waitBudget, until the read models have
// applied seq.
func (d *Deps) waitFor(ctx context.Context, seq uint64) { d.waitWithin(ctx, seq, waitBudget) }

// waitWithin waits, bounded by budget, until the read models have applied
// seq, and says whether they did. Running late is logged, not failed: the
// command is stored.
func (d *Deps) waitWithin(ctx context.Context, seq uint64, budget time.Duration) bool {
	if d.Waiter == nil || seq == 0 {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	for {
		err := d.Waiter.WaitFor(ctx, seq)
		if err == nil {
			return true
		}
		// The read models bound each wait themselves (a few seconds): a
		// longer budget asks again.
		select {
		case <-ctx.Done():
			d.Log.Warn("read models behind the write", "request_id", httpx.RequestID(ctx), "sequence", seq, "err", err)
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// proposalPath fills a proposal id from the {id} wildcard.
func proposalPath(r *http.Request) string { return r.PathValue("id") }

// proposalResource answers a proposal command with the proposal's address.
func proposalResource(id string) (string, string) { return id, "/api/v1/proposals/" + id }
