package site

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// heartbeat is how often an idle stream sends a comment, so proxies and
// the reader's browser keep the connection and a dead one is noticed.
const heartbeat = 15 * time.Second

// recentEditions bounds the editions the hub keeps for slow streams.
const recentEditions = 64

// hub tells the readers following GET /events that an edition was
// published. While anyone listens, one goroutine watches the read models:
// at each commit (Store.Changed) it asks the editions table for editions
// past the last one it saw, keeps them, and wakes every stream, which sends
// what it has not sent yet. A vote or a draft commits too, but finds no new
// edition and wakes nobody.
type hub struct {
	read *projections.Store
	log  *slog.Logger

	mu      sync.Mutex
	seen    uint64                       // stream sequence of the newest edition seen
	recent  []projections.EditionSummary // oldest first, bounded
	subs    map[chan struct{}]struct{}
	running bool
	kick    chan struct{} // wakes the watcher when the last stream leaves
	closed  chan struct{} // closed by CloseStreams
	once    sync.Once
}

// newHub returns the hub of the read models; nil read gives a hub that is
// never served (the read wrapper answers instead).
func newHub(read *projections.Store, log *slog.Logger) *hub {
	h := &hub{read: read, log: log, subs: map[chan struct{}]struct{}{},
		kick: make(chan struct{}, 1), closed: make(chan struct{})}
	if read != nil {
		if m, err := read.EditionMark(context.Background(), ""); err == nil {
			h.seen = m.Seq
		}
	}
	return h
}

// close ends every stream.
func (h *hub) close() { h.once.Do(func() { close(h.closed) }) }

// streams reports how many streams are open.
func (h *hub) streams() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// subscribe adds a stream and starts the watcher if it is not running.
func (h *hub) subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	h.subs[ch] = struct{}{}
	if !h.running {
		h.running = true
		go h.watch()
	}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.subs, ch)
		h.mu.Unlock()
		select {
		case h.kick <- struct{}{}:
		default:
		}
	}
}

// watch follows the read models while anyone listens.
func (h *hub) watch() {
	for {
		changed := h.read.Changed() // before the query: a commit after it still wakes us
		h.refresh()
		h.mu.Lock()
		if len(h.subs) == 0 {
			h.running = false
			h.mu.Unlock()
			return
		}
		h.mu.Unlock()
		select {
		case <-changed:
		case <-h.kick:
		case <-h.closed:
			h.mu.Lock()
			h.running = false
			h.mu.Unlock()
			return
		}
	}
}

// refresh loads editions published since the last seen and wakes the streams.
func (h *hub) refresh() {
	h.mu.Lock()
	seen := h.seen
	h.mu.Unlock()
	eds, err := h.read.EditionsSince(context.Background(), seen)
	if err != nil {
		h.log.Warn("live updates: reading new editions failed", "err", err)
		return
	}
	if len(eds) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recent = append(h.recent, eds...)
	if n := len(h.recent); n > recentEditions {
		h.recent = append([]projections.EditionSummary(nil), h.recent[n-recentEditions:]...)
	}
	h.seen = eds[len(eds)-1].Seq
	for ch := range h.subs {
		select {
		case ch <- struct{}{}:
		default: // already woken
		}
	}
}

// since returns the kept editions after sequence seq.
func (h *hub) since(seq uint64) []projections.EditionSummary {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []projections.EditionSummary
	for _, e := range h.recent {
		if e.Seq > seq {
			out = append(out, e)
		}
	}
	return out
}

// editionEvent is the data of an "edition-published" event.
type editionEvent struct {
	Ranking string `json:"ranking"`
	Edition int    `json:"edition"`
}

// serve streams server-sent events: first the editions published after
// the client's position (?since=, or Last-Event-ID when the browser
// reconnects), then each new one as it is projected, with heartbeats. The
// event id is the edition's stream sequence.
func (h *hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	wake, leave := h.subscribe()
	defer leave()
	pos, ok := streamPosition(r)
	if !ok {
		m, err := h.read.EditionMark(ctx, "")
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		pos = m.Seq
	}
	missed, err := h.read.EditionsSince(ctx, pos)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	send := func(write func(io.Writer) error) bool {
		// The server's WriteTimeout would cut the stream: each write
		// extends the deadline past the next heartbeat.
		_ = rc.SetWriteDeadline(time.Now().Add(2 * heartbeat))
		if err := write(w); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	sendEditions := func(eds []projections.EditionSummary) bool {
		return send(func(out io.Writer) error {
			for _, e := range eds {
				if e.Seq <= pos {
					continue
				}
				data, _ := json.Marshal(editionEvent{Ranking: e.Ranking, Edition: e.Number})
				if _, err := fmt.Fprintf(out, "id: %d\nevent: edition-published\ndata: %s\n\n", e.Seq, data); err != nil {
					return err
				}
				pos = e.Seq
			}
			return nil
		})
	}
	if !send(func(out io.Writer) error { _, err := io.WriteString(out, "retry: 2000\n\n"); return err }) || !sendEditions(missed) {
		return
	}
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.closed:
			return
		case <-wake:
			if !sendEditions(h.since(pos)) {
				return
			}
		case <-tick.C:
			if !send(func(out io.Writer) error { _, err := io.WriteString(out, ": ping\n\n"); return err }) {
				return
			}
		}
	}
}

// streamPosition reads where the client is: Last-Event-ID (a browser
// reconnecting) or ?since=.
func streamPosition(r *http.Request) (uint64, bool) {
	for _, v := range []string{r.Header.Get("Last-Event-ID"), r.URL.Query().Get("since")} {
		if n, err := strconv.ParseUint(v, 10, 64); err == nil {
			return n, true
		}
	}
	return 0, false
}

// StreamsPerClient bounds the live streams (GET /events) one client
// address holds open at once, as the desk's streams are bounded: each
// holds a goroutine, a connection and a wake-up on every edition, and a
// reader needs one per open tab.
const StreamsPerClient = 8

// streamRetry is the Retry-After of a refused stream.
const streamRetry = 30 * time.Second

// limitStreams answers 429 with Retry-After to a client address holding
// StreamsPerClient streams already.
func (s *Site) limitStreams(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		release, err := s.streamSlots.acquire(r)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		defer release()
		h.ServeHTTP(w, r)
	})
}
