// Package delivery is how Crossrank's senders retry what they send to the
// outside — webhooks, chat posts, mail, captures: how many attempts, the
// pause after each failed one, and when a failure is final. The webhook
// and chat senders retry in place (Retry), keeping their JetStream message
// in progress while they wait; mail and captures retry through the engine
// (a redelivery delayed by Policy.Wait, a one-shot schedule), so they use
// only the policy.
package delivery

import (
	"context"
	"time"
)

// Policy bounds the attempts at one delivery.
type Policy struct {
	// Attempts in all, the first included; when the last fails the
	// failure is final.
	Attempts int
	// First is the pause after the first failed attempt; each further one
	// doubles it, up to Max.
	First, Max time.Duration
}

// Wait returns the pause after failed attempt n (1 for the first): First,
// doubled for each attempt after the first, at most Max.
func (p Policy) Wait(n int) time.Duration {
	wait := p.First
	for i := 1; i < n && wait < p.Max; i++ {
		wait *= 2
	}
	return min(wait, p.Max)
}

// Final reports whether failed attempt n was the last the policy allows.
func (p Policy) Final(n int) bool { return n >= p.Attempts }

// Retry calls try with attempt 1, 2, … until it succeeds, the policy's
// attempts run out or ctx ends, pausing p.Wait(n) after failed attempt n.
// failed, if not nil, hears each failure that will be retried. While it
// pauses, keep (if not nil) is called every keepEvery and once at the
// pause's end: a JetStream message's InProgress, so the server does not
// hand the delivery to another sender meanwhile. It returns the last
// try's status and error and the attempts made.
func Retry(ctx context.Context, p Policy, keep func(), keepEvery time.Duration,
	try func(attempt int) (int, error), failed func(attempt int, wait time.Duration, err error)) (status, attempts int, err error) {
	for attempt := 1; ; attempt++ {
		status, err = try(attempt)
		if err == nil || p.Final(attempt) || ctx.Err() != nil {
			return status, attempt, err
		}
		wait := p.Wait(attempt)
		if failed != nil {
			failed(attempt, wait, err)
		}
		if !pause(ctx, wait, keep, keepEvery) {
			return status, attempt, ctx.Err()
		}
	}
}

// pause waits d, calling keep every keepEvery and at the end; false if
// ctx ended first.
func pause(ctx context.Context, d time.Duration, keep func(), keepEvery time.Duration) bool {
	if keep == nil {
		keep = func() {}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	tick := time.NewTicker(max(keepEvery, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			keep()
			return true
		case <-tick.C:
			keep()
		}
	}
}
