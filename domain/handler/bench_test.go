package handler_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
)

// BenchmarkHandlerCastVote: one vote through the handler into the real
// embedded store (fsync on every write), each on its own proposal's revision.
// "direct" reads the ranking and edition from the store for every vote, as
// a handler without a follower does; "followed" keeps them current from the
// stream and checks them with one round trip (follow.go). Both run on the
// same store, so the stream grows alike for both.
func BenchmarkHandlerCastVote(b *testing.B) {
	ctx := context.Background()
	st := newStore(b)
	direct := handler.New(st, func() time.Time { return t0 })
	desk(b, ctx, direct, st)
	followed := handler.New(st, func() time.Time { return t0 })
	for _, c := range []struct {
		name string
		h    *handler.Handler
	}{{"direct", direct}, {"followed", followed}} {
		b.Run(c.name, func(b *testing.B) {
			if c.h == followed {
				fctx, stop := context.WithCancel(ctx)
				defer stop()
				go func() { _ = followed.Follow(fctx, st) }()
			}
			a := actor("rita")
			b.ReportAllocs()
			defer reportCPU(b)()
			i := 0
			for b.Loop() {
				v := domain.CastVote{CommandID: newCommandID(), Proposal: "p1", Revision: 1, Verdict: approve, VerifiedEvidence: []string{"e1"}}
				if i%2 == 1 {
					v.Verdict, v.VerifiedEvidence, v.Comment = reject, nil, "unsure"
				}
				if _, err := c.h.CastVote(ctx, a, v); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// reportCPU reports the process's CPU time (user+sys) per op: the client,
// the embedded server and everything else in the process, less disturbed
// than wall time by other work on a shared machine. Call it at the start
// and defer the function it returns.
func reportCPU(b *testing.B) func() {
	start := processCPU()
	return func() {
		b.ReportMetric(float64((processCPU()-start).Microseconds())/float64(b.N), "cpu-µs/op")
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHandlerCastVoteTransition: votes that move the proposal through
// the handler into the real embedded store. ravi's approval is cast once
// before the loop; then rita alternates an approval, which completes the
// quorum (the proposal is cross-validated), and a veto, which breaks it
// again (returned to review). One proposal serves every op and every op is
// a transition, the command that needed an atomic batch of two events
// before the transition was folded into the vote. cpu-µs/op is the whole
// process's user+sys time (the embedded nats-server included) per op:
// wall time swings with the machine's other load.
func BenchmarkHandlerCastVoteTransition(b *testing.B) {
	ctx := context.Background()
	st := newStore(b)
	h := handler.New(st, func() time.Time { return t0 })
	desk(b, ctx, h, st)
	if _, err := h.CastVote(ctx, actor("ravi"), approveAll("p1")); err != nil {
		b.Fatal(err)
	}
	a := actor("rita")
	b.ReportAllocs()
	i := 0
	defer reportCPU(b)()
	for b.Loop() {
		v := approveAll("p1")
		if i%2 == 1 {
			v.Verdict, v.VerifiedEvidence, v.Comment = reject, nil, "unsure"
		}
		if _, err := h.CastVote(ctx, a, v); err != nil {
			b.Fatal(err)
		}
		i++
	}
	p, err := h.Proposal(ctx, "p1")
	if err != nil {
		b.Fatal(err)
	}
	want := map[bool]domain.Status{true: domain.StatusCrossValidated, false: domain.StatusInReview}[i%2 == 1]
	if p.Status != want {
		b.Fatalf("after %d votes p1 is %s, want %s", i, p.Status, want)
	}
}
