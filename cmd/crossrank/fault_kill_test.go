package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestFaultKillUnderLoad kills `crossrank serve` with SIGKILL while 16
// clients write through the JSON API, restarts it on the same data, and
// holds the stream to what the clients were told: every acknowledged write
// is stored exactly once, nothing that failed is stored in part (a new
// entry's EntryCreated and ProposalOpened: both or neither), requests the kill cut off are
// safe to send again with the same key, and `crossrank verify` passes.
func TestFaultKillUnderLoad(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	data := t.TempDir()
	tokens := demoTokens(t, "--data", data)
	// The embedded NATS also listens on loopback, so the test can read the
	// stream as the restarted server left it, before anything is retried.
	natsAddr := freeLoopbackAddr(t)
	srv := startServe(t, "serve", data, "--no-demo", "--nats-listen", natsAddr)

	seed := uint64(time.Now().UnixNano())
	killAfter := 1500*time.Millisecond + time.Duration(rand.New(rand.NewPCG(seed, 0)).Int64N(int64(2500*time.Millisecond)))
	t.Logf("seed %d: SIGKILL after %s of load", seed, killAfter)
	l := startAPILoad(tokens, 16, seed, func(int, int) string { return srv.url })
	time.Sleep(killAfter)
	srv.kill()
	killedAt := time.Now()
	l.stop()
	ops := l.snapshot()
	if len(ops) == 0 || ops[0].Status == 0 {
		t.Fatalf("the load wrote nothing before the kill: %s", opSummary(ops))
	}
	t.Logf("before the kill: %d requests, %d stories done (%s)", len(ops), l.stories, opSummary(ops))

	srv.restart()
	t.Logf("restarted on the same data, ready %s after the kill", time.Since(killedAt).Round(time.Millisecond))
	rep := checkLedger(t, ops, readStream(t, "nats://"+natsAddr, 1))
	t.Logf("after the kill: %s", rep)
	if rep.AckedFound != rep.Acked {
		t.Fatalf("%d acknowledged writes lost", rep.Acked-rep.AckedFound)
	}

	retried, replayed := retryUnanswered(t, ops, tokens, srv.url)
	t.Logf("sent the %d unanswered requests again with their keys: %d acknowledged, %d of them replays of a write the kill hid",
		countRetried(ops), retried, replayed)
	if replayed != rep.UnackedLanded {
		t.Errorf("%d retries were replays, but %d unanswered writes were stored", replayed, rep.UnackedLanded)
	}
	checkProposals(t, ops, srv.url, tokens["editor"])
	srv.stop()

	rep = checkLedger(t, ops, readDataStream(t, data))
	t.Logf("after the retries: %s", rep)
	if out, err := runCLIErr(t, "verify", "--data", data); err != nil {
		t.Errorf("crossrank verify after the kill: %v\n%s", err, out)
	} else {
		t.Logf("%s", lastLine(out))
	}
}

func countRetried(ops []*apiOp) int {
	n := 0
	for _, o := range ops {
		if o.Retried {
			n++
		}
	}
	return n
}

// checkProposals reads every proposal whose opening was acknowledged back
// through the API (GET /api/v1/proposals/{id}) and checks it shows the
// acknowledged steps: evidence, a score change, submitted, approved.
func checkProposals(t *testing.T, ops []*apiOp, base, token string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	type want struct {
		evidence, change, submitted bool
		votes                       int
	}
	wants := map[string]*want{}
	var order []string
	for _, o := range ops {
		if !o.acked() {
			continue
		}
		w := wants[o.Proposal]
		if w == nil {
			w = &want{}
			wants[o.Proposal] = w
			order = append(order, o.Proposal)
		}
		switch o.Kind {
		case "evidence":
			w.evidence = true
		case "change":
			w.change = true
		case "submit":
			w.submitted = true
		case "vote":
			w.votes++
		}
	}
	for _, id := range order {
		w := wants[id]
		status, body, err := apiGet(ctx, base+"/api/v1/proposals/"+id, token)
		if err != nil || status != http.StatusOK {
			t.Errorf("GET proposal %s: %d %v %s", id, status, err, body)
			continue
		}
		var p struct {
			Status   string            `json:"status"`
			Evidence []json.RawMessage `json:"evidence"`
			Scores   []json.RawMessage `json:"scores"`
			Votes    []json.RawMessage `json:"votes"`
		}
		if err := json.Unmarshal(body, &p); err != nil {
			t.Errorf("GET proposal %s: %v", id, err)
			continue
		}
		switch {
		case w.evidence && len(p.Evidence) != 1, w.change && len(p.Scores) != 1, len(p.Votes) < w.votes,
			w.submitted && p.Status == "draft", w.votes == 2 && p.Status != "cross_validated":
			t.Errorf("proposal %s after the kill: status %s, %d evidence, %d scores, %d votes; acknowledged: %+v",
				id, p.Status, len(p.Evidence), len(p.Scores), len(p.Votes), *w)
		}
	}
}

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
