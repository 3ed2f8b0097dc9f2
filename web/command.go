package web

import (
	"context"
	"net/http"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
)

// waitBudget bounds how long a write waits for the read models before it
// answers anyway: the write is stored; only the next page may lag.
const waitBudget = 2 * time.Second

// input is the constraint on a command's input: it may carry its own
// command id (the JSON body's "id").
type input interface{ requestedCommandID() string }

// withCommandID is the optional "id" of a JSON command body, the same as the
// Idempotency-Key header: the command id as the client chose it (see
// commandIDFor). Every input embeds it.
type withCommandID struct {
	CommandID string `json:"id,omitempty"`
}

func (w withCommandID) requestedCommandID() string { return w.CommandID }

// action is one write use case, shared by the JSON API and the HTML forms.
// Its input decodes from JSON (struct tags) or from a form (form); path
// fills in the ids named in the URL; run issues the domain command. The
// same execute then waits for the read models, whoever asked.
type action[In input] struct {
	name    string
	created bool // the API answers 201 Created rather than 200 OK
	path    func(r *http.Request, in *In)
	form    func(f *httpx.Form, in *In)
	run     func(s *Server, ctx context.Context, a domain.Actor, commandID string, in *In) (domain.Result, error)
	// resource names what the command wrote, for the API's answer: an id
	// and the address to read it at.
	resource func(s *Server, ctx context.Context, in *In, commandID string) (id, location string)
}

// execute runs act for the signed-in user: command id (from the one the
// client requested, if any), command, then the wait for the read models
// (unless wait is false). It returns the command id it used.
func execute[In input](s *Server, ctx context.Context, act action[In], requested string, in *In, wait bool) (domain.Result, string, error) {
	a := httpx.Actor(ctx)
	commandID, err := httpx.CommandID(a.Name, requested, s.now())
	if err != nil {
		return domain.Result{}, "", err
	}
	res, err := timeCommand(act.name, func() (domain.Result, error) { return act.run(s, ctx, a, commandID, in) })
	if err != nil {
		return res, commandID, err
	}
	s.log.Info("command", "request_id", httpx.RequestID(ctx), "action", act.name, "user", a.Name,
		"command_id", commandID, "sequence", res.Sequence, "replayed", res.Replayed)
	if wait {
		s.waitFor(ctx, res.Sequence)
	}
	return res, commandID, nil
}

// waitFor waits, bounded by waitBudget, until the read models have applied
// seq. Running late is logged, not failed: the command is stored.
func (s *Server) waitFor(ctx context.Context, seq uint64) {
	if s.waiter == nil || seq == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, waitBudget)
	defer cancel()
	if err := s.waiter.WaitFor(ctx, seq); err != nil {
		s.log.Warn("read models behind the write", "request_id", httpx.RequestID(ctx), "sequence", seq, "err", err)
	}
}
