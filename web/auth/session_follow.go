package auth

import (
	"context"
	"encoding/json"
	"sync"
	"time"
)

// apply takes a record from the sync. Revocation sticks: a late copy of a
// record from before it was revoked does not bring the session back.
func (g *sessionRegistry) apply(key string, value []byte, deleted bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if deleted {
		delete(g.byKey, key)
		return
	}
	var rec sessionRecord
	if json.Unmarshal(value, &rec) != nil || rec.User == "" {
		return // not a record this version writes: ignore it
	}
	if old := g.byKey[key]; old != nil && old.Revoked {
		rec.Revoked = true
	}
	if _, ok := g.byKey[key]; !ok && len(g.byKey) >= g.max {
		g.prune(time.Now())
	}
	g.byKey[key] = &rec
}

// follow starts following s: it returns once every record s holds is
// here (or with the error that kept it from loading them), then keeps
// taking changes until ctx ends, watching again after an interruption.
func (g *sessionRegistry) follow(ctx context.Context, s Bucket, onErr func(error)) error {
	ready := make(chan struct{})
	first := make(chan error, 1)
	go func() {
		var once sync.Once
		markReady := func() { once.Do(func() { close(ready) }) }
		pause := time.Second
		for {
			began := time.Now()
			err := s.Watch(ctx, g.apply, markReady)
			select {
			case <-ready:
			default:
				first <- err // never loaded: the caller decides
				return
			}
			if ctx.Err() != nil {
				return
			}
			onErr(err)
			if time.Since(began) > time.Minute {
				pause = time.Second // it had been working: start over quickly
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(pause):
			}
			pause = min(2*pause, 30*time.Second)
		}
	}()
	select {
	case <-ready:
		g.mu.Lock()
		g.sync = s
		g.mu.Unlock()
		go func() {
			tick := time.NewTicker(2 * time.Second)
			defer tick.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
					g.mu.Lock()
					n := len(g.pending)
					g.mu.Unlock()
					if n > 0 {
						g.retryPending(ctx)
					}
				}
			}
		}()
		return nil
	case err := <-first:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
