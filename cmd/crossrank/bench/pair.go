package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/nats-io/nats.go"
)

// storePair is what a write benchmark measures on: a fresh store for
// Crossrank and another for the raw reference, each the production
// embedded server (SyncAlways), in a scratch folder of their own.
type storePair struct {
	dir       string
	desk, raw *dataStore
}

// openPair opens name's pair of fresh stores for run.
func openPair(ctx context.Context, o *options, name string, run int) (*storePair, error) {
	p := &storePair{dir: filepath.Join(o.scratch, fmt.Sprintf("%s-%d", name, run))}
	var err error
	if p.desk, err = openDataStore(ctx, filepath.Join(p.dir, "desk"), true); err != nil {
		p.close()
		return nil, err
	}
	if p.raw, err = openDataStore(ctx, filepath.Join(p.dir, "raw"), true); err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

// close stops both servers and removes the folder.
func (p *storePair) close() {
	for _, b := range []*dataStore{p.desk, p.raw} {
		if b != nil {
			b.close()
		}
	}
	os.RemoveAll(p.dir)
}

// rawMsg is one stored message as RawPublish sends it.
type rawMsg struct {
	subject string
	h       nats.Header
	body    []byte
}

// republish publishes the messages from's stream holds after sequence
// after — exactly what was appended there, whatever path appended it — on
// to's stream, with RawPublish from n goroutines. It reads them back a
// chunk at a time, so the copies never all sit in memory, and returns how
// many there were, their bytes (bodies and headers), and how long the
// publishes took (reading back excluded).
func republish(ctx context.Context, from *dataStore, after uint64, to *dataStore, n int) (count, bytes int, took time.Duration, err error) {
	last, err := from.events.LastSequence(ctx)
	for err == nil && after < last {
		var msgs []rawMsg
		msgs, after, err = readBack(ctx, from, after, republishChunk)
		if err != nil {
			break
		}
		var d time.Duration
		d, err = rawPublishMsgs(ctx, to, msgs, n)
		count, bytes, took = count+len(msgs), bytes+size(msgs), took+d
	}
	return count, bytes, took, err
}

const republishChunk = 2000

var errChunkFull = errors.New("chunk full")

// readBack reads up to max messages after sequence after, and the
// sequence of the last one read. Headers of the publish itself (atomic
// batch, expectations) are dropped; the event's own (ce-*, Nats-Msg-Id,
// content type) are kept.
func readBack(ctx context.Context, b *dataStore, after uint64, max int) ([]rawMsg, uint64, error) {
	var out []rawMsg
	err := b.events.RawReplay(ctx, after+1, func(seq uint64, subject string, h nats.Header, body []byte) error {
		kept := nats.Header{}
		for k, v := range h {
			if !strings.HasPrefix(k, "Nats-") || k == "Nats-Msg-Id" {
				kept[k] = v
			}
		}
		out, after = append(out, rawMsg{subject, kept, body}), seq
		if len(out) == max {
			return errChunkFull
		}
		return nil
	})
	if errors.Is(err, errChunkFull) {
		err = nil
	}
	return out, after, err
}

// size is the messages' bytes: subjects, bodies and headers.
func size(msgs []rawMsg) int {
	n := 0
	for _, m := range msgs {
		n += len(m.body) + len(m.subject)
		for k, v := range m.h {
			n += len(k) + len(strings.Join(v, ""))
		}
	}
	return n
}

// rawPublish publishes evs with RawPublish from n goroutines and returns
// how long it took (encoding excluded).
func rawPublish(ctx context.Context, b *dataStore, evs []events.Event, n int) (time.Duration, error) {
	msgs := make([]rawMsg, len(evs))
	for i, e := range evs {
		subject, h, body, err := events.Encode(e)
		if err != nil {
			return 0, err
		}
		msgs[i] = rawMsg{subject, nats.Header(h), body}
	}
	return rawPublishMsgs(ctx, b, msgs, n)
}

// rawPublishMsgs publishes msgs with RawPublish from n goroutines, each
// one at a time, and returns how long it took.
func rawPublishMsgs(ctx context.Context, b *dataStore, msgs []rawMsg, n int) (time.Duration, error) {
	var wg sync.WaitGroup
	errs := make(chan error, n)
	start := time.Now()
	for w := range n {
		wg.Go(func() {
			for i := w; i < len(msgs); i += n {
				if _, err := b.events.RawPublish(ctx, msgs[i].subject, msgs[i].h, msgs[i].body); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	d := time.Since(start)
	close(errs)
	if err := <-errs; err != nil {
		return 0, err
	}
	return d, nil
}
