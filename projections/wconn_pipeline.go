package projections

import (
	"bytes"
	"context"
	"database/sql/driver"
	"fmt"
	"strings"
	"sync/atomic"
)

// pipeline runs a wconn's writes on a goroutine of its own, so that a
// rebuild builds the next rows on one core while SQLite executes the last
// ones on the other. exec binds the statement's arguments into values the
// queue owns and queues it; the executor runs the statements in order,
// exactly the statements and the order of an unpipelined connection.
// Everything else that touches the connection (query, queryRow, run: reads,
// BEGIN, COMMIT, PRAGMA, CREATE INDEX) syncs first: waits until the queue
// has run, and has the connection to itself until the next exec. The first
// failed statement's error is returned by the next sync (or exec) and by
// every one after it; the statements queued behind it are dropped.
//
// Statements travel in batches, so that the two goroutines meet once per
// batch rather than once per statement, and each batch's values live in
// one buffer that comes back for reuse once the batch has run.
type pipeline struct {
	batches chan *pipelineBatch // to the executor
	free    chan *pipelineBatch // back from it
	synced  chan error
	done    chan struct{}
	next    *pipelineBatch // being filled
	failed  atomic.Bool    // a queued statement failed
	err     error          // the executor's first error, once done is closed
}

// pipelineBatch is statements to run in order, then a sync if asked for.
type pipelineBatch struct {
	stmts []pipelineStmt
	vals  []driver.NamedValue // the statements' arguments, one after the other
	bytes int                 // of the strings and byte slices among vals
	sync  bool
}

// pipelineStmt is a statement with its arguments, vals[lo:hi] of its batch.
type pipelineStmt struct {
	q      string
	lo, hi int
}

// A batch is sent when it holds pipelineBatchStmts statements,
// pipelineBatchVals values or pipelineBatchBytes of text, or
// pipelineEagerStmts statements while none waits, and at most pipelineDepth
// batches wait: about a thousand statements, enough to keep the executor
// busy across a burst (an edition writes hundreds of rows). The text bound
// matters at commit, when every dirty state is written as JSON of a few KB:
// values that would be garbage at once unpipelined stay alive while queued,
// and the collector lets the heap grow twice what is alive.
const (
	pipelineBatchStmts = 64
	pipelineEagerStmts = 8
	pipelineBatchVals  = 2048
	pipelineBatchBytes = 64 << 10
	pipelineDepth      = 16
)

// pipelined starts an executor for w's writes; close stops it.
func (w *wconn) pipelined() {
	p := &pipeline{
		batches: make(chan *pipelineBatch, pipelineDepth),
		free:    make(chan *pipelineBatch, pipelineDepth+2),
		synced:  make(chan error),
		done:    make(chan struct{}),
		next:    &pipelineBatch{},
	}
	w.pipe = p
	go p.run(w)
}

// unpipelined runs what is queued, stops the executor and returns its first
// error.
func (w *wconn) unpipelined() error {
	p := w.pipe
	if p == nil {
		return nil
	}
	w.pipe = nil
	if len(p.next.stmts) > 0 {
		p.batches <- p.next
	}
	close(p.batches)
	<-p.done
	return p.err
}

// sync waits until the queued statements have run and returns the first
// error among them (or any before).
func (w *wconn) sync() error {
	if w.pipe == nil {
		return nil
	}
	return w.pipe.sync()
}

func (p *pipeline) sync() error {
	p.next.sync = true
	p.send()
	return <-p.synced
}

// send queues the batch being filled and starts another.
func (p *pipeline) send() {
	p.batches <- p.next
	select {
	case p.next = <-p.free:
	default:
		p.next = &pipelineBatch{}
	}
}

// exec binds args into values of the queue's own (the caller may reuse args
// and the buffers behind them once exec returns) and queues q with them.
func (p *pipeline) exec(q string, args []any) error {
	if p.failed.Load() {
		return p.sync()
	}
	b := p.next
	lo := len(b.vals)
	vals, err := appendBound(b.vals, args)
	if err != nil {
		clear(vals[lo:])
		b.vals = vals[:lo]
		return err
	}
	for i := lo; i < len(vals); i++ {
		switch x := vals[i].Value.(type) {
		case string:
			b.bytes += len(x)
		case []byte:
			vals[i].Value = bytes.Clone(x)
			b.bytes += len(x)
		}
	}
	b.vals = vals
	b.stmts = append(b.stmts, pipelineStmt{q: q, lo: lo, hi: len(vals)})
	// A full batch goes; so does a smaller one while the executor has
	// nothing waiting, so that less of the work is left for the next sync.
	if len(b.stmts) >= pipelineBatchStmts || len(b.vals) >= pipelineBatchVals || b.bytes >= pipelineBatchBytes ||
		len(b.stmts) >= pipelineEagerStmts && len(p.batches) == 0 {
		p.send()
	}
	return nil
}

// run is the executor: it owns w's connection and statements between syncs.
func (p *pipeline) run(w *wconn) {
	defer close(p.done)
	var err error
	for b := range p.batches {
		for _, st := range b.stmts {
			if err != nil {
				break
			}
			if err = w.execBound(st.q, b.vals[st.lo:st.hi]); err != nil {
				err = fmt.Errorf("projections: %s: %w", statementName(st.q), err)
				p.failed.Store(true)
			}
		}
		sync := b.sync
		clear(b.vals) // drop the references to the values
		clear(b.stmts)
		*b = pipelineBatch{stmts: b.stmts[:0], vals: b.vals[:0]}
		select {
		case p.free <- b:
		default:
		}
		if sync {
			p.synced <- err
		}
	}
	p.err = err
}

// execBound runs q with values already bound.
func (w *wconn) execBound(q string, nv []driver.NamedValue) error {
	st, err := w.stmt(q)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(context.Background(), nv)
	return err
}

// statementName shortens q for an error message: its first line, at most
// 80 bytes.
func statementName(q string) string {
	q, _, _ = strings.Cut(q, "\n")
	if len(q) > 80 {
		q = q[:80] + "…"
	}
	return q
}
