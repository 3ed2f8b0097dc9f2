package jetstream_test

import (
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"
	"github.com/synadia-io/orbit.go/jetstreamext"
)

// BenchmarkBatchFlowControl asks whether the cost of an atomic batch is
// the client's flow control: each op publishes, on one fresh store, a
// two-message batch with AckFirst (as Append does), the same without it,
// and one plain publish, and reports the mean time of each, so all three
// see the machine in the same state. The store's subjects and headers
// are used, without expectations.
func BenchmarkBatchFlowControl(b *testing.B) {
	e := startServer(b, jetstream.EmbeddedOptions{Dir: b.TempDir()})
	nc := connect(b, e)
	open(b, nc, jetstream.Config{}) // creates the stream
	js, err := natsjs.New(nc)
	if err != nil {
		b.Fatal(err)
	}
	ctx := testContext(b)
	n := 0
	msgs := func(k int) []*nats.Msg {
		ms := make([]*nats.Msg, k)
		for i := range ms {
			subject, h, body, err := events.Encode(vote(b, "p-bench", n))
			if err != nil {
				b.Fatal(err)
			}
			n++
			ms[i] = &nats.Msg{Subject: subject, Header: nats.Header(h), Data: body}
		}
		return ms
	}
	var ackFirst, noAckFirst, single time.Duration
	b.ResetTimer()
	for range b.N {
		a, c, s := msgs(2), msgs(2), msgs(1)[0]
		t0 := time.Now()
		if _, err := jetstreamext.PublishMsgBatch(ctx, js, a, jetstreamext.BatchFlowControl{AckFirst: true, AckTimeout: 10 * time.Second}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := jetstreamext.PublishMsgBatch(ctx, js, c, jetstreamext.BatchFlowControl{AckTimeout: 10 * time.Second}); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if _, err := js.PublishMsg(ctx, s); err != nil {
			b.Fatal(err)
		}
		ackFirst, noAckFirst, single = ackFirst+t1.Sub(t0), noAckFirst+t2.Sub(t1), single+time.Since(t2)
	}
	ops := float64(b.N)
	b.ReportMetric(float64(ackFirst.Microseconds())/ops, "batch2-ackfirst-µs")
	b.ReportMetric(float64(noAckFirst.Microseconds())/ops, "batch2-no-ackfirst-µs")
	b.ReportMetric(float64(single.Microseconds())/ops, "publish-µs")
}
