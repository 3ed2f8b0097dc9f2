package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
)

// A load is a number of clients each running review stories against the
// JSON API: open a proposal (half of them for a new entry, two events in
// one atomic batch), add evidence, propose a score, submit, and two
// reviewers approving at once (the second approval also cross-validates:
// two events). Every request carries its own Idempotency-Key, a UUIDv7 that
// the server uses as the command id and so as the id of the command's first
// event: what each request wrote can be found in the stream whatever answer
// it got, or none.

// apiOp is one request of a load and what came of it.
type apiOp struct {
	Kind     string // open, open-new, evidence, change, submit, vote
	Key      string // Idempotency-Key, the command id
	User     string
	Base     string // the server it was sent to
	Path     string
	Body     any
	Proposal string
	Status   int // HTTP status; 0: no answer (connection refused or cut)
	Problem  problemAnswer
	Answer   commandAnswer
	Err      string // why there was no answer
	Retry    string // Retry-After of a refusal
	Start    time.Time
	Took     time.Duration
	Retried  bool // sent again after a restart with the same key
}

// acked reports whether the server acknowledged the write.
func (o *apiOp) acked() bool { return o.Status/100 == 2 }

type commandAnswer struct {
	ID       string   `json:"id"`
	Command  string   `json:"command"`
	Sequence uint64   `json:"sequence"`
	Events   []string `json:"events"`
	Replayed bool     `json:"replayed"`
}

type problemAnswer struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
}

// apiClient sends the JSON API requests of a load.
var apiClient = &http.Client{
	Timeout:   15 * time.Second,
	Transport: &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64, IdleConnTimeout: 30 * time.Second},
}

// postOp sends o.Body as JSON with the user's token and key, and records the answer.
func postOp(ctx context.Context, o *apiOp, token string) {
	b, _ := json.Marshal(o.Body)
	o.Start = time.Now()
	defer func() { o.Took = time.Since(o.Start) }()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.Base+o.Path, bytes.NewReader(b))
	if err != nil {
		o.Err = err.Error()
		return
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Idempotency-Key", o.Key)
	res, err := apiClient.Do(req)
	if err != nil {
		o.Err = err.Error()
		return
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		// The status came but the body was cut: the outcome is unknown.
		o.Err = "reading the answer: " + err.Error()
		return
	}
	o.Status, o.Retry = res.StatusCode, res.Header.Get("Retry-After")
	if o.acked() {
		if err := json.Unmarshal(body, &o.Answer); err != nil {
			o.Err = fmt.Sprintf("undecodable answer %q: %v", body, err)
		}
		return
	}
	json.Unmarshal(body, &o.Problem)
	o.Err = strings.TrimSpace(string(body))
}

// apiGet fetches url with the token (if any) and returns status and body.
func apiGet(ctx context.Context, url, token string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := apiClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// apiLoad runs stories from a number of clients until stopped.
type apiLoad struct {
	tokens map[string]string
	// base picks the server of a story's step; with several replicas a
	// story's steps and its two votes go to different ones.
	base func(story, step int) string

	mu      sync.Mutex
	ops     []*apiOp
	stories int

	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// startAPILoad starts clients running stories until stop.
func startAPILoad(tokens map[string]string, clients int, seed uint64, base func(story, step int) string) *apiLoad {
	ctx, cancel := context.WithCancel(context.Background())
	l := &apiLoad{tokens: tokens, base: base, cancel: cancel}
	for c := range clients {
		rng := rand.New(rand.NewPCG(seed, uint64(c)))
		l.wg.Go(func() {
			for n := 0; ctx.Err() == nil; n++ {
				if !l.story(ctx, rng, c*100000+n) {
					// refused or unanswered: don't spin while the server
					// or its store is away
					select {
					case <-ctx.Done():
					case <-time.After(50 * time.Millisecond):
					}
				}
			}
		})
	}
	return l
}

// stop ends the clients and waits for them.
func (l *apiLoad) stop() {
	l.cancel()
	l.wg.Wait()
}

// snapshot returns the ops so far.
func (l *apiLoad) snapshot() []*apiOp {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.ops)
}

var demoPlatforms = demo.File().Entries

var demoCriteria = []string{demo.CritDelivery, demo.CritGPUs, demo.CritCluster, demo.CritIntegration,
	demo.CritElasticity, demo.CritGraphics, demo.CritOnboarding, demo.CritDataAccess}

// story runs one proposal from opening to cross-validation, stopping at the
// first request that is not acknowledged. It reports whether every request
// was acknowledged.
func (l *apiLoad) story(ctx context.Context, rng *rand.Rand, n int) bool {
	key := events.NewID(time.Now())
	open := &apiOp{Kind: "open", Key: key, User: "editor", Base: l.base(n, 0), Path: "/api/v1/proposals", Proposal: key}
	if rng.IntN(2) == 0 {
		open.Kind = "open-new"
		entry := "fault-" + strings.ReplaceAll(key[24:], "-", "")
		open.Body = map[string]any{"ranking": demo.RankingSlug, "entry": entry, "title": "Add " + entry,
			"new_entry": map[string]any{
				"name":     map[string]string{"zh": "故障测试 " + entry, "en": "Fault test " + entry},
				"category": "specialist", "description": map[string]string{"zh": "一个测试条目", "en": "A test entry"},
			}}
	} else {
		entry := demoPlatforms[rng.IntN(len(demoPlatforms))].Slug
		open.Body = map[string]any{"ranking": demo.RankingSlug, "entry": entry, "title": "Rescore " + entry}
	}
	if !l.send(ctx, open) {
		return false
	}
	id := open.Proposal
	steps := []*apiOp{
		{Kind: "evidence", Path: "/evidence", Body: map[string]any{"claim": "Checked by the fault test",
			"source_name": "Fault test notes", "excerpt": "observed under load", "observed_on": "2026-11-01"}},
		{Kind: "change", Path: "/changes", Body: map[string]any{"criterion": demoCriteria[rng.IntN(len(demoCriteria))],
			"to": rng.IntN(11), "rationale": "measured under load", "evidence": []string{"e1"}}},
		{Kind: "submit", Path: "/submit", Body: map[string]any{}},
	}
	for i, o := range steps {
		o.Key, o.User, o.Base, o.Proposal = events.NewID(time.Now()), "editor", l.base(n, i+1), id
		o.Path = "/api/v1/proposals/" + id + o.Path
		if !l.send(ctx, o) {
			return false
		}
	}
	// Both reviewers approve at once: the appends race on the proposal.
	var wg sync.WaitGroup
	for i, reviewer := range []string{"reviewer1", "reviewer2"} {
		o := &apiOp{Kind: "vote", Key: events.NewID(time.Now()), User: reviewer, Base: l.base(n, 4+i), Proposal: id,
			Path: "/api/v1/proposals/" + id + "/votes",
			Body: map[string]any{"verdict": "approve", "revision": 1, "verified_evidence": []string{"e1"}, "comment": "checked"}}
		wg.Go(func() { l.send(ctx, o) })
	}
	wg.Wait()
	l.mu.Lock()
	l.stories++
	l.mu.Unlock()
	return true
}

// send posts o, records it, and reports whether it was acknowledged.
func (l *apiLoad) send(ctx context.Context, o *apiOp) bool {
	postOp(ctx, o, l.tokens[o.User])
	l.mu.Lock()
	l.ops = append(l.ops, o)
	l.mu.Unlock()
	return o.acked()
}

// opSummary counts ops by outcome: "2xx", "409", "503", "no answer"...
func opSummary(ops []*apiOp) string {
	counts := map[string]int{}
	for _, o := range ops {
		switch {
		case o.acked():
			counts["2xx"]++
		case o.Status == 0:
			counts["no answer"]++
		default:
			counts[fmt.Sprint(o.Status)]++
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %d", k, counts[k])
	}
	return b.String()
}

// retryUnanswered sends every op that got no answer again, with the same
// key and body, to base (the restarted server). An op whose first attempt
// was stored must come back as a replay of it; one that was not is carried
// out now, or refused if its story broke off earlier. It returns the
// retries that were acknowledged and how many of them were replays.
func retryUnanswered(t *testing.T, ops []*apiOp, tokens map[string]string, base string) (acked, replayed int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, o := range ops {
		if o.Status != 0 {
			continue
		}
		o.Base, o.Retried = base, true
		postOp(ctx, o, tokens[o.User])
		if o.Status == 0 {
			t.Fatalf("retry of %s %s after the restart got no answer: %s", o.Kind, o.Key, o.Err)
		}
		if o.acked() {
			acked++
			if o.Answer.Replayed {
				replayed++
			}
		}
	}
	return acked, replayed
}
