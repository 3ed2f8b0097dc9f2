package desk

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
)

// Verifier checks the audit trail against the event store: it replays the
// stream, recomputes the hash chain and every edition's snapshot, and
// compares them with the read models. The audit page runs it on demand.
type Verifier interface {
	Verify(ctx context.Context) (VerifyResult, error)
}

// VerifyResult is the outcome of one verification. Passed is false when
// the replay disagrees with the read models or an edition; an error from
// Verify means the verification could not run (the store is down).
type VerifyResult struct {
	Passed   bool
	Events   uint64 // events replayed
	Editions int    // editions checked
	Head     string // the replayed chain head (when passed)
	// The first disagreement, when not passed.
	Seq     uint64
	Edition int    // 0 when it is not about an edition
	Detail  string // the technical description (English)
	At      time.Time
}

// ProjectionVerifier verifies with projections.Verify: src is the event
// store, db the read models. It remembers its latest outcome, which the
// audit page shows until the next run.
func ProjectionVerifier(src projections.Replayer, db *sql.DB) Verifier {
	return &projectionVerifier{src: src, db: db, running: make(chan struct{}, 1)}
}

type projectionVerifier struct {
	src projections.Replayer
	db  *sql.DB

	running chan struct{} // one verification at a time: each replays the whole stream
	mu      sync.Mutex
	last    *VerifyResult
}

func (v *projectionVerifier) Verify(ctx context.Context) (VerifyResult, error) {
	select {
	case v.running <- struct{}{}:
		defer func() { <-v.running }()
	case <-ctx.Done():
		return VerifyResult{}, ctx.Err()
	}
	rep, err := projections.Verify(ctx, v.src, v.db)
	res := VerifyResult{Events: rep.Events, Editions: rep.Editions, At: time.Now()}
	var m *projections.Mismatch
	switch {
	case errors.As(err, &m):
		res.Seq, res.Edition, res.Detail = m.Seq, m.Edition, m.What
	case err != nil:
		return VerifyResult{}, err
	default:
		res.Passed, res.Head = true, rep.Head
	}
	v.mu.Lock()
	v.last = &res
	v.mu.Unlock()
	return res, nil
}

// Last returns the latest outcome, if any.
func (v *projectionVerifier) Last() (VerifyResult, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.last == nil {
		return VerifyResult{}, false
	}
	return *v.last, true
}

// auditVerifyView is the outcome of a verification in the reader's words.
type auditVerifyView struct {
	Outcome string // "passes", "fails", "error"
	Message string
	Detail  string
	At      string
}

func verifyViewOf(lang string, res VerifyResult) *auditVerifyView {
	v := &auditVerifyView{At: i18n.DateTime(lang, res.At)}
	switch {
	case res.Passed:
		v.Outcome, v.Message = "passes", i18n.T(lang, "audit.verify.passes", res.Events, res.Editions)
	case res.Edition > 0:
		v.Outcome, v.Message = "fails", i18n.T(lang, "audit.verify.fails_edition", res.Seq, res.Edition)
	default:
		v.Outcome, v.Message = "fails", i18n.T(lang, "audit.verify.fails", res.Seq)
	}
	if !res.Passed {
		v.Detail = res.Detail
	}
	return v
}

// lastVerify returns the outcome of the latest verification, when the
// verifier remembers one.
func (d *Desk) lastVerify(lang string) *auditVerifyView {
	lv, ok := d.verify.(interface{ Last() (VerifyResult, bool) })
	if !ok {
		return nil
	}
	if res, ok := lv.Last(); ok {
		return verifyViewOf(lang, res)
	}
	return nil
}

// serveVerify runs the verification and shows the audit page with its
// outcome. It writes nothing, so it answers at once rather than
// redirecting; it is a POST because it replays the whole stream, which no
// link or prefetch should start.
func (d *Desk) serveVerify(w http.ResponseWriter, r *http.Request) {
	lang := httpx.Lang(r.Context())
	if d.verify == nil {
		d.renderAudit(w, r, &auditVerifyView{Outcome: "error", Message: i18n.T(lang, "audit.verify.unavailable")})
		return
	}
	res, err := d.verify.Verify(r.Context())
	if err != nil {
		d.log.Error("verify failed to run", "request_id", httpx.RequestID(r.Context()), "err", err)
		d.renderAudit(w, r, &auditVerifyView{Outcome: "error", Message: httpx.Message(lang, err)})
		return
	}
	if !res.Passed {
		d.log.Warn("verify found a mismatch", "request_id", httpx.RequestID(r.Context()), "sequence", res.Seq,
			"edition", res.Edition, "detail", res.Detail)
	}
	d.renderAudit(w, r, verifyViewOf(lang, res))
}
