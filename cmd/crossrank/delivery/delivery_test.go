package delivery_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/delivery"
)

func TestPolicyWait(t *testing.T) {
	p := delivery.Policy{Attempts: 12, First: 10 * time.Second, Max: 2 * time.Hour}
	for n, want := range map[int]time.Duration{1: 10 * time.Second, 2: 20 * time.Second, 3: 40 * time.Second,
		9: 2560 * time.Second, 10: 5120 * time.Second, 11: 2 * time.Hour, 40: 2 * time.Hour} {
		if got := p.Wait(n); got != want {
			t.Errorf("Wait(%d) = %v, want %v", n, got, want)
		}
	}
	if p.Final(11) || !p.Final(12) {
		t.Error("Final: the 12th failed attempt of 12 is final, the 11th is not")
	}
}

// TestRetryKeepsTheMessageWhileItWaits: a delivery that fails twice and
// then succeeds is tried three times, its pauses double, and the message
// is kept in progress during each pause, not only after it (the chat
// sender's own loop reported progress only once a pause had ended, so a
// pause longer than the consumer's AckWait handed the post to another
// sender).
func TestRetryKeepsTheMessageWhileItWaits(t *testing.T) {
	p := delivery.Policy{Attempts: 5, First: 60 * time.Millisecond, Max: time.Second}
	var kept atomic.Int32
	var waits []time.Duration
	fail := errors.New("receiver answered HTTP 502")
	status, attempts, err := delivery.Retry(context.Background(), p, func() { kept.Add(1) }, 10*time.Millisecond,
		func(n int) (int, error) {
			if n < 3 {
				return 502, fail
			}
			return 200, nil
		}, func(_ int, wait time.Duration, _ error) { waits = append(waits, wait) })
	if status != 200 || attempts != 3 || err != nil {
		t.Fatalf("Retry = %d, %d, %v; want 200 after 3 attempts", status, attempts, err)
	}
	if len(waits) != 2 || waits[0] != 60*time.Millisecond || waits[1] != 120*time.Millisecond {
		t.Errorf("pauses %v, want [60ms 120ms]", waits)
	}
	if k := kept.Load(); k < 6 {
		t.Errorf("the message was kept in progress %d times over 180 ms of pauses every 10 ms; want it kept throughout", k)
	}

	status, attempts, err = delivery.Retry(context.Background(), delivery.Policy{Attempts: 2, First: time.Millisecond, Max: time.Millisecond},
		nil, 0, func(int) (int, error) { return 500, fail }, nil)
	if status != 500 || attempts != 2 || !errors.Is(err, fail) {
		t.Errorf("after the last attempt: %d, %d, %v; want 500, 2, the last error", status, attempts, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, attempts, err = delivery.Retry(ctx, p, nil, 0, func(int) (int, error) { return 0, fail }, nil); attempts != 1 || err == nil {
		t.Errorf("ended context: %d attempts, %v; want 1 and an error", attempts, err)
	}
}
