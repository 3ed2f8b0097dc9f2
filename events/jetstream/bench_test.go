package jetstream_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go"
)

// The benchmarks pair each store operation with its raw JetStream
// reference (RawPublish, RawReplay): the difference is the cost of the
// layer (encoding, checks, expectations, decoding), the rest is the server
// and fsync.

func BenchmarkAppend(b *testing.B) {
	s := newStore(b)
	ctx := testContext(b)
	var last uint64
	evs := make([]events.Event, b.N)
	for i := range evs {
		evs[i] = vote(b, "p-bench", i)
	}
	b.ResetTimer()
	for i := range b.N {
		seq, err := s.Append(ctx, expect("p-bench", last), evs[i])
		if err != nil {
			b.Fatal(err)
		}
		last = seq
	}
}

func BenchmarkRawPublish(b *testing.B) {
	s := newStore(b)
	ctx := testContext(b)
	type msg struct {
		subject string
		h       nats.Header
		body    []byte
	}
	msgs := make([]msg, b.N)
	for i := range msgs {
		subject, h, body, _ := events.Encode(vote(b, "p-bench", i))
		msgs[i] = msg{subject, nats.Header(h), body}
	}
	b.ResetTimer()
	for _, m := range msgs {
		if _, err := s.RawPublish(ctx, m.subject, m.h, m.body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendBatch measures atomic batches. On an R1 file stream the
// server stages each batch in a new file store of its own (created and
// removed per batch), which costs more than the events themselves.
func BenchmarkAppendBatch(b *testing.B) {
	for _, size := range []int{2, 10, 100} {
		b.Run(fmt.Sprintf("events=%d", size), func(b *testing.B) {
			s := newStore(b)
			ctx := testContext(b)
			var last uint64
			batches := make([][]events.Event, b.N)
			for i := range batches {
				for j := range size {
					batches[i] = append(batches[i], vote(b, "p-bench", j))
				}
			}
			b.ResetTimer()
			for i := range b.N {
				seq, err := s.Append(ctx, expect("p-bench", last), batches[i]...)
				if err != nil {
					b.Fatal(err)
				}
				last = seq
			}
			b.ReportMetric(float64(b.N*size)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkLoad loads one aggregate among many, as a command does. The
// "cached" case asks only for events after the last one, as the domain's
// cache does when nothing changed.
func BenchmarkLoad(b *testing.B) {
	b.Run("cached", func(b *testing.B) {
		s := newStore(b)
		fill(b, s, 50, 10)
		ctx := testContext(b)
		agg := proposal("p-fill-25")
		all, err := s.Load(ctx, agg, 0)
		if err != nil {
			b.Fatal(err)
		}
		last := all[len(all)-1].Sequence
		b.ResetTimer()
		for range b.N {
			if got, err := s.Load(ctx, agg, last); err != nil || len(got) != 0 {
				b.Fatalf("Load: %d events, %v", len(got), err)
			}
		}
	})
	// A command's reads: an aggregate written long ago (a ranking), on a
	// stream busy with many other aggregates since.
	b.Run("cached-busy", func(b *testing.B) {
		s := newStore(b)
		fill(b, s, 1, 5)
		ctx := testContext(b)
		for round := range 60 { // 6000 events on 6000 other proposals
			var evs []events.Event
			for i := range 100 {
				evs = append(evs, vote(b, fmt.Sprintf("p-busy-%d", round*100+i), 1))
			}
			if _, err := s.Append(ctx, nil, evs...); err != nil {
				b.Fatal(err)
			}
		}
		agg := proposal("p-fill-0")
		all, err := s.Load(ctx, agg, 0)
		if err != nil || len(all) != 5 {
			b.Fatalf("Load: %d events, %v", len(all), err)
		}
		last := all[len(all)-1].Sequence
		b.ResetTimer()
		for range b.N {
			if got, err := s.Load(ctx, agg, last); err != nil || len(got) != 0 {
				b.Fatalf("Load: %d events, %v", len(got), err)
			}
		}
	})
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			s := newStore(b)
			fill(b, s, 50, n)
			ctx := testContext(b)
			agg := proposal("p-fill-25")
			b.ResetTimer()
			for range b.N {
				got, err := s.Load(ctx, agg, 0)
				if err != nil || len(got) != n {
					b.Fatalf("Load: %d events, %v", len(got), err)
				}
			}
		})
	}
}

const replayEvents = 20_000

func BenchmarkReplay(b *testing.B) {
	s := newStore(b)
	fill(b, s, 100, replayEvents/100)
	ctx := testContext(b)
	b.ResetTimer()
	for range b.N {
		n := 0
		if err := s.Replay(ctx, 1, func(events.Event) error { n++; return nil }); err != nil || n != replayEvents {
			b.Fatalf("Replay: %d events, %v", n, err)
		}
	}
	b.ReportMetric(float64(b.N*replayEvents)/b.Elapsed().Seconds(), "events/s")
}

func BenchmarkRawReplay(b *testing.B) {
	s := newStore(b)
	fill(b, s, 100, replayEvents/100)
	ctx := testContext(b)
	b.ResetTimer()
	for range b.N {
		n := 0
		if err := s.RawReplay(ctx, 1, func(uint64, string, nats.Header, []byte) error { n++; return nil }); err != nil || n != replayEvents {
			b.Fatalf("RawReplay: %d events, %v", n, err)
		}
	}
	b.ReportMetric(float64(b.N*replayEvents)/b.Elapsed().Seconds(), "events/s")
}

// fill appends perAgg events to each of aggs proposals, interleaved, in
// batches so that setting up a large stream stays quick.
func fill(b *testing.B, s *jetstream.Store, aggs, perAgg int) {
	b.Helper()
	ctx := testContext(b)
	for round := 0; round < perAgg; round += 100 {
		for a := range aggs {
			var evs []events.Event
			for i := round; i < min(round+100, perAgg); i++ {
				evs = append(evs, vote(b, fmt.Sprintf("p-fill-%d", a), i))
			}
			if _, err := s.Append(ctx, nil, evs...); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkDeskPattern publishes the way the desk does — ten events per
// new aggregate, each after a load of that aggregate — through Append (with
// the per-aggregate expectation) and, as the reference, RawPublish of the
// same messages, each on a fresh store.
func BenchmarkDeskPattern(b *testing.B) {
	for _, raw := range []bool{true, false} {
		name := "Append"
		if raw {
			name = "RawPublish"
		}
		b.Run(name, func(b *testing.B) {
			s := newStore(b)
			ctx := testContext(b)
			var last uint64
			i := 0
			for b.Loop() {
				id := fmt.Sprintf("p%06d", i/10)
				if i%10 == 0 {
					last = 0
				}
				e := vote(b, id, i%10+1)
				if _, err := s.Load(ctx, proposal(id), last); err != nil {
					b.Fatal(err)
				}
				var err error
				if raw {
					subject, h, body, _ := events.Encode(e)
					last, err = s.RawPublish(ctx, subject, nats.Header(h), body)
				} else {
					last, err = s.Append(ctx, expect(id, last), e)
				}
				if err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkParallel32 runs 32 writers at once, each on its own aggregate,
// as the command bench's parallel phase does: Append with its expectation
// (the server checks the aggregate's last sequence before storing) against
// RawPublish of the very same messages without it, on one store, in
// alternating rounds of 32×8 events so both see the stream and the disk in
// the same state. With fsync on every write the server's stream loop is
// the bottleneck; what Append adds there is the expectation's lookup.
func BenchmarkParallel32(b *testing.B) {
	const writers, perRound = 32, 8
	s := newStore(b)
	ctx := testContext(b)
	last := make([]uint64, writers)
	var appendDur, rawDur time.Duration
	round := func(r int, raw bool) {
		var wg sync.WaitGroup
		start := time.Now()
		for w := range writers {
			wg.Go(func() {
				agg := fmt.Sprintf("p-par-%02d", w)
				if raw {
					agg = fmt.Sprintf("p-raw-%02d", w)
				}
				for i := range perRound {
					ev := vote(b, agg, r*perRound+i)
					if raw {
						subject, h, body, _ := events.Encode(ev)
						if _, err := s.RawPublish(ctx, subject, nats.Header(h), body); err != nil {
							b.Error(err)
							return
						}
						continue
					}
					seq, err := s.Append(ctx, expect(agg, last[w]), ev)
					if err != nil {
						b.Error(err)
						return
					}
					last[w] = seq
				}
			})
		}
		wg.Wait()
		if raw {
			rawDur += time.Since(start)
		} else {
			appendDur += time.Since(start)
		}
	}
	r := 0
	for b.Loop() {
		round(r, false)
		round(r, true)
		r++
	}
	n := float64(r * writers * perRound)
	b.ReportMetric(n/appendDur.Seconds(), "append-events/s")
	b.ReportMetric(n/rawDur.Seconds(), "raw-events/s")
	b.ReportMetric(rawDur.Seconds()/appendDur.Seconds(), "ratio")
}
