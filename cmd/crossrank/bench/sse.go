package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// arrival is one reader receiving one edition-published message.
type arrival struct {
	edition int
	at      time.Time
}

// measureSSE connects o.readers clients to GET /events, then publishes
// editions one at a time through the command handler and measures, for
// every reader, the time from the start of the publish command (its atomic
// append, fsynced, included) to the edition-published message.
func measureSSE(ctx context.Context, o *options, run int) ([]time.Duration, error) {
	dir := filepath.Join(o.scratch, fmt.Sprintf("sse-%d", run))
	defer os.RemoveAll(dir)
	b, err := openDataStore(ctx, dir, true)
	if err != nil {
		return nil, err
	}
	defer b.close()
	spec := deskSpec{slug: "live", entries: 40, evidence: 3, perEdition: 40, ready: o.ssePublishes, seed: o.seed}
	if err := generateDesk(ctx, b.events, spec); err != nil {
		return nil, err
	}
	w, err := startWeb(ctx, b)
	if err != nil {
		return nil, err
	}
	defer w.stop()

	rctx, closeReaders := context.WithCancel(ctx)
	defer closeReaders()
	client := &http.Client{Transport: transport(o.readers)}
	got := make(chan arrival, o.readers*(o.ssePublishes+1))
	connected := make(chan error, o.readers)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer closeReaders()
	for range o.readers {
		wg.Go(func() { sseReader(rctx, client, w.url+"/events", connected, got) })
	}
	for range o.readers {
		if err := <-connected; err != nil {
			return nil, fmt.Errorf("SSE reader: %w", err)
		}
	}
	o.logf("  %d readers connected to /events", o.readers)

	pub := domain.Actor{Name: spec.slug + "-publisher", Roles: []string{domain.RolePublisher}}
	var lat []time.Duration
	for _, id := range deskReady(spec) {
		pv, _, err := w.commands.PreviewEdition(ctx, spec.slug, []string{id})
		if err != nil {
			return nil, err
		}
		head, seq, _ := w.read.AuditHead(ctx)
		cands, err := w.read.CrossValidated(ctx, spec.slug)
		if err != nil {
			return nil, err
		}
		time.Sleep(200 * time.Millisecond) // let the previous round settle
		start := time.Now()
		if _, err := w.commands.Publish(ctx, pub, domain.PublishEdition{CommandID: events.NewID(start), Ranking: spec.slug,
			Proposals: []string{id}, PreviewHash: pv.Hash, AuditHead: head, AuditSeq: seq, Candidates: cands}); err != nil {
			return nil, fmt.Errorf("publish %s: %w", id, err)
		}
		acked := time.Since(start)
		var round []time.Duration
		timeout := time.After(30 * time.Second)
		for len(round) < o.readers {
			select {
			case a := <-got:
				if a.edition == pv.Number {
					round = append(round, a.at.Sub(start))
				}
			case <-timeout:
				return nil, fmt.Errorf("edition %d reached %d of %d readers in 30s", pv.Number, len(round), o.readers)
			}
		}
		o.logf("  edition %d: append acked after %v; readers p50 %v, p99 %v, last %v", pv.Number, acked.Round(time.Microsecond),
			percentile(round, 0.5).Round(time.Microsecond), percentile(round, 0.99).Round(time.Microsecond), percentile(round, 1).Round(time.Microsecond))
		lat = append(lat, round...)
	}
	return lat, nil
}

// sseReader follows the event stream, reports once when connected (the
// server's retry line arrived) and sends every edition-published message
// with the time it arrived.
func sseReader(ctx context.Context, client *http.Client, url string, connected chan<- error, got chan<- arrival) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		connected <- err
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		connected <- fmt.Errorf("status %s", resp.Status)
		return
	}
	sc := bufio.NewScanner(resp.Body)
	first, edition := true, false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case first && strings.HasPrefix(line, "retry:"):
			first = false
			connected <- nil
		case line == "event: edition-published":
			edition = true
		case edition && strings.HasPrefix(line, "data: "):
			at := time.Now()
			var d struct {
				Edition int `json:"edition"`
			}
			if json.Unmarshal([]byte(line[len("data: "):]), &d) == nil {
				select {
				case got <- arrival{d.Edition, at}:
				case <-ctx.Done():
					return
				}
			}
			edition = false
		}
	}
	if first {
		connected <- fmt.Errorf("stream ended before it started: %v", sc.Err())
	}
}
