package bench

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
)

// busyCaptures records a capture of each proposal's evidence in turn, as
// the capture worker records its fetches (domain.Worker, RecordCapture,
// DefaultWorkers of them at once), until stop is closed or every proposal
// has one. It returns how many it recorded.
func busyCaptures(ctx context.Context, h *handler.Handler, proposals []string, stop <-chan struct{}) (int, error) {
	next := make(chan string)
	go func() {
		defer close(next)
		for _, id := range proposals {
			select {
			case next <- id:
			case <-stop:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	var (
		mu    sync.Mutex
		n     int
		seq   atomic.Int64
		first error
		wg    sync.WaitGroup
	)
	for range capture.DefaultWorkers {
		wg.Go(func() {
			for id := range next {
				p, err := h.Proposal(ctx, id)
				if err == nil {
					ev := p.EvidenceIDs()
					if len(ev) == 0 {
						continue
					}
					_, err = h.RecordCapture(ctx, domain.Worker(), domain.RecordCapture{CommandID: events.NewID(time.Now()),
						Proposal: id, Evidence: ev[0], At: time.Now(), FinalURL: "https://example.com/" + id, Status: 200,
						ContentType: "text/html", Size: 4096, SHA256: fmt.Sprintf("%064x", seq.Add(1)), QuoteChecked: true, QuoteFound: true})
				}
				mu.Lock()
				if err == nil {
					n++
				} else if first == nil {
					first = fmt.Errorf("%s: %w", id, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return n, first
}
