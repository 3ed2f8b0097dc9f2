package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/server"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/auth"
)

// apiClients drive the command benchmark's cycles through the served HTTP
// API, each user with a bearer token of its own, as API clients do.
type apiClients struct {
	url    string
	client *http.Client
	tokens map[string]string // by user name
	stop   func()
}

// deskUsers are the users of spec that the command cycles act as.
func deskUsers(spec deskSpec) []string {
	users := []string{spec.slug + "-reviewer1"}
	for i := 1; i <= 4; i++ {
		users = append(users, fmt.Sprintf("%s-editor%d", spec.slug, i))
	}
	return users
}

// startAPI issues users a token each, has the read models follow the
// stream as serve's runner does (bearer tokens are looked up there), and
// serves srv's HTTP server on its loopback address.
func startAPI(ctx context.Context, srv *server.Server, read *projections.Store, b *dataStore, users []string) (*apiClients, error) {
	a := &apiClients{client: &http.Client{Transport: transport(parallelAggregates), Timeout: httpTimeout}, tokens: map[string]string{}}
	for _, u := range users {
		now := time.Now()
		id, _, full, hash := auth.NewToken(now)
		if _, err := srv.Commands.IssueToken(ctx, domain.System(), domain.IssueToken{CommandID: events.NewID(now),
			User: u, TokenID: id, Name: "bench", Hash: hash}); err != nil {
			return nil, fmt.Errorf("token for %s: %w", u, err)
		}
		a.tokens[u] = full
	}
	runCtx, stopRunner := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = read.Run(runCtx, b.events, nil) })
	stopRead := func() { stopRunner(); wg.Wait() }
	last, err := b.events.LastSequence(ctx)
	if err == nil {
		err = waitRead(ctx, read, last, 5*time.Minute)
	}
	if err != nil {
		stopRead()
		return nil, err
	}
	ln, err := net.Listen("tcp", srv.HTTP.Addr)
	if err != nil {
		stopRead()
		return nil, err
	}
	go srv.HTTP.Serve(ln)
	a.url = "http://" + ln.Addr().String()
	a.stop = func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.HTTP.Shutdown(sctx)
		a.client.CloseIdleConnections()
		stopRead()
	}
	return a, nil
}

// runCycles runs runCycles' commands (see there) through the API: each
// request with a fresh idempotency key, and ?nowait=1, so that it answers
// once the command is stored, as the handler does, without waiting for
// the read models (what the web layer costs, not the projection).
func (a *apiClients) runCycles(ctx context.Context, spec deskSpec, tag string, w, from, n int) error {
	editor := fmt.Sprintf("%s-editor%d", spec.slug, 1+w%4)
	reviewer := spec.slug + "-reviewer1"
	entry := fmt.Sprintf("platform-%05d", w)
	for k := from; k < from+n; k++ {
		var opened struct {
			ID string `json:"id"`
		}
		if err := a.post(ctx, editor, "/api/v1/proposals", map[string]any{"ranking": spec.slug, "entry": entry,
			"title": "Rescore " + entry, "summary": "New prices this month."}, &opened); err != nil {
			return fmt.Errorf("cycle %d on %s: %w", k, entry, err)
		}
		p := "/api/v1/proposals/" + opened.ID
		type step struct {
			user, path string
			body       any
		}
		var steps []step
		for e := 1; e <= 4; e++ {
			steps = append(steps, step{editor, p + "/evidence", map[string]any{"claim": fmt.Sprintf("Claim %d", e),
				"source_url": fmt.Sprintf("https://example.com/%s/%s-%d/%d", entry, tag, k, e), "excerpt": deskExcerpt,
				"observed_on": "2026-02-01", "valid_for_days": 180}})
		}
		for c := 1; c <= 2; c++ {
			steps = append(steps, step{editor, p + "/changes", map[string]any{"criterion": fmt.Sprintf("c%d", c), "to": (k + c) % 11,
				"rationale": "Follows from the new price list.", "evidence": []string{fmt.Sprintf("e%d", c)}}})
		}
		steps = append(steps,
			step{editor, p + "/submit", map[string]any{}},
			step{reviewer, p + "/votes", map[string]any{"verdict": events.Approve, "revision": 1,
				"verified_evidence": []string{"e1", "e2", "e3", "e4"}}},
			step{editor, p + "/withdraw", map[string]any{"reason": "Superseded."}})
		for i, s := range steps {
			if err := a.post(ctx, s.user, s.path, s.body, nil); err != nil {
				return fmt.Errorf("cycle %d step %d on %s: %w", k, i+1, opened.ID, err)
			}
		}
	}
	return nil
}

// post sends one command and decodes its answer into out (when not nil).
func (a *apiClients) post(ctx context.Context, user, path string, body, out any) error {
	js, err := json.Marshal(body)
	if err != nil {
		return err
	}
	return a.do(ctx, http.MethodPost, user, path+"?nowait=1", "application/json", js, out)
}

// do sends one request as user with a fresh idempotency key and decodes
// its answer into out (when not nil); any status but 2xx is an error.
func (a *apiClients) do(ctx context.Context, method, user, path, ctype string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, a.url+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", ctype)
		req.Header.Set("Idempotency-Key", events.NewID(time.Now()))
	}
	req.Header.Set("Authorization", "Bearer "+a.tokens[user])
	res, err := a.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		return &httpError{method: method, path: path, status: res.StatusCode, body: b}
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// httpError is an answer other than 2xx.
type httpError struct {
	method, path string
	status       int
	body         []byte
}

func (e *httpError) Error() string {
	return fmt.Sprintf("%s %s: %d %s %s", e.method, e.path, e.status, http.StatusText(e.status), e.body)
}

// short is the status and the problem's detail.
func (e *httpError) short() string {
	var p struct {
		Detail string `json:"detail"`
	}
	_ = json.Unmarshal(e.body, &p)
	return fmt.Sprintf("%d %s", e.status, p.Detail)
}

// chained reads crossrank_appends_chained_total from the served /metrics:
// the appends the handler sent as chain links (-1 when it cannot).
func (a *apiClients) chained() int {
	res, err := a.client.Get(a.url + "/metrics")
	if err != nil {
		return -1
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "crossrank_appends_chained_total "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err == nil {
				return int(n)
			}
		}
	}
	return -1
}
