package events

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"
)

// Expectation guards an append: the aggregate's last stored sequence must be
// LastSeq (0: the aggregate has no events yet). With Stream set it guards the
// whole log instead: its last sequence, whatever the aggregate, must be
// LastSeq — nothing at all was stored since (Aggregate is ignored; at most
// one such expectation per append). With Stream and After set, the log's
// last event must be the one with id After, whatever its sequence: the
// append goes right after that event or not at all (LastSeq is ignored;
// one event per append).
type Expectation struct {
	Aggregate Aggregate
	LastSeq   uint64
	Stream    bool
	After     string
}

// Store is an append-only event log with optimistic concurrency per aggregate.
type Store interface {
	// Append stores evs atomically, all or nothing, when every expectation
	// holds, and returns the stream sequence of the last event. A failed
	// expectation returns ErrConflict, unless the events are already stored
	// under the same ids (a retry), which is success. An unreachable store
	// returns ErrUnavailable at once; nothing is buffered.
	Append(ctx context.Context, expect []Expectation, evs ...Event) (uint64, error)
	// Load returns the aggregate's events with sequence > after, in order.
	Load(ctx context.Context, agg Aggregate, after uint64) ([]Event, error)
	// LoadMany returns the events of each of aggs, in order, and the
	// sequence of the log's last event when it began: each aggregate has
	// no other event up to it. It reads the log once, for a command that
	// reads thousands of aggregates (an edition's proposals and entries),
	// where Load would make one request each.
	LoadMany(ctx context.Context, aggs []Aggregate) (map[Aggregate][]Event, uint64, error)
	// Replay calls fn for each event with sequence >= from, in order, up to
	// the last event stored when Replay was called. An event that does not
	// decode stops the replay with an error naming its sequence.
	Replay(ctx context.Context, from uint64, fn func(Event) error) error
	// LastSequence returns the sequence of the newest event in the log.
	LastSequence(ctx context.Context) (uint64, error)
}

// NewID returns a UUIDv7: 48 bits of Unix milliseconds, then random bits,
// so ids sort by creation time.
func NewID(now time.Time) string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	ms := uint64(now.UnixMilli())
	u[0], u[1], u[2], u[3], u[4], u[5] = byte(ms>>40), byte(ms>>32), byte(ms>>24), byte(ms>>16), byte(ms>>8), byte(ms)
	u[6] = u[6]&0x0f | 0x70
	u[8] = u[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], u[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], u[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], u[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], u[8:10])
	s[23] = '-'
	hex.Encode(s[24:], u[10:])
	return string(s[:])
}
