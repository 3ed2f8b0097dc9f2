package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
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
	form    func(f *form, in *In)
	run     func(s *Server, ctx context.Context, a domain.Actor, commandID string, in *In) (domain.Result, error)
	// resource names what the command wrote, for the API's answer: an id
	// and the address to read it at.
	resource func(s *Server, ctx context.Context, in *In, commandID string) (id, location string)
}

// execute runs act for the signed-in user: command id (from the one the
// client requested, if any), command, then the wait for the read models
// (unless wait is false). It returns the command id it used.
func execute[In input](s *Server, ctx context.Context, act action[In], requested string, in *In, wait bool) (domain.Result, string, error) {
	a := actorOf(ctx)
	commandID, err := commandIDFor(a.Name, requested, s.now())
	if err != nil {
		return domain.Result{}, "", err
	}
	res, err := timeCommand(act.name, func() (domain.Result, error) { return act.run(s, ctx, a, commandID, in) })
	if err != nil {
		return res, commandID, err
	}
	s.log.Info("command", "request_id", requestIDOf(ctx), "action", act.name, "user", a.Name,
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
		s.log.Warn("read models behind the write", "request_id", requestIDOf(ctx), "sequence", seq, "err", err)
	}
}

// commandIDFor turns the command id a client requested into the command
// id, the id of the first event the command stores: running a command again
// with the same id stores nothing new. A UUID (a form's cmd_id) is used as
// it is; any other id (an Idempotency-Key) is hashed with the user's name
// into a UUID, so two users' ids never collide. None: a fresh UUIDv7.
func commandIDFor(user, requested string, now time.Time) (string, error) {
	switch {
	case requested == "":
		return events.NewID(now), nil
	case isUUID(requested):
		return requested, nil
	case len(requested) > 255 || !printableASCII(requested):
		return "", &badField{Field: "id", Code: "field.command_id"}
	}
	// The hash's prefix string stays as it is: changing it would change
	// the command id of every Idempotency-Key already stored.
	sum := sha256.Sum256([]byte("crossrank idempotency key\x00" + user + "\x00" + requested))
	h := hex.EncodeToString(sum[:16])
	// A version-8 (custom) UUID with the RFC 9562 variant bits.
	return h[0:8] + "-" + h[8:12] + "-8" + h[13:16] + "-" + variant(h[16]) + h[17:20] + "-" + h[20:32], nil
}

func variant(c byte) string {
	n := c - '0'
	if c >= 'a' {
		n = c - 'a' + 10
	}
	return string("89ab"[n&3])
}

// isUUID reports whether s is a UUID in canonical lowercase form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
	}
	return true
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
