package desk_test

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/webtest"
)

// demoEnv is webtest's DemoEnv, with the browser tests' own steps as its
// methods.
type demoEnv struct{ *webtest.DemoEnv }

func newDemoEnv(t *testing.T) *demoEnv { return &demoEnv{webtest.NewDemo(t)} }

var captureFetched = time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)

// recordCapture records a capture result as the capture worker does and
// waits for the read models.
func (e *demoEnv) recordCapture(c domain.RecordCapture) {
	e.T.Helper()
	c.CommandID, c.At = c.Proposal+"-"+c.Evidence+"-capture", captureFetched
	res, err := e.Cmd.RecordCapture(e.Ctx, domain.Worker(), c)
	if err != nil {
		e.T.Fatal(err)
	}
	if err := e.Read.WaitFor(e.Ctx, res.Sequence); err != nil {
		e.T.Fatal(err)
	}
}

// nextEvidence is the id the domain gives the n-th evidence item of a proposal.
func nextEvidence(n int) string { return "e" + strconv.Itoa(n) }

// streams is the number of live-update streams the server holds open, as
// its /metrics reports them (crossrank_sse_clients): this package sees the
// server from outside.
func (e *demoEnv) streams() int {
	e.T.Helper()
	rec := httptest.NewRecorder()
	e.Srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	sc := bufio.NewScanner(rec.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "crossrank_sse_clients "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				e.T.Fatalf("crossrank_sse_clients %q: %v", v, err)
			}
			return int(n)
		}
	}
	e.T.Fatalf("no crossrank_sse_clients in /metrics")
	return 0
}
