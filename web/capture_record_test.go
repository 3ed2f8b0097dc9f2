package web

import (
	"strconv"
	"time"

	"github.com/crossrank/crossrank/domain"
)

var captureFetched = time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)

// recordCapture records a capture result as the capture worker does and
// waits for the read models.
func (e *demoEnv) recordCapture(c domain.RecordCapture) {
	e.t.Helper()
	c.CommandID, c.At = c.Proposal+"-"+c.Evidence+"-capture", captureFetched
	res, err := e.cmd.RecordCapture(e.ctx, domain.Worker(), c)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.read.WaitFor(e.ctx, res.Sequence); err != nil {
		e.t.Fatal(err)
	}
}

// nextEvidence is the id the domain gives the n-th evidence item of a proposal.
func nextEvidence(n int) string { return "e" + strconv.Itoa(n) }
