package jetstream

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/crossrank/crossrank/events"
	"github.com/nats-io/nats.go/jetstream"
)

// LoadMany returns the events of each of aggs and the stream's last
// sequence when it began, reading the stream once with an ordered
// consumer and decoding only the aggregates' messages. A direct get
// filtered on one aggregate makes the server walk the message block its
// events are in, so thousands of Loads cost thousands of block scans;
// one pass costs one.
func (s *Store) LoadMany(ctx context.Context, aggs []events.Aggregate) (map[events.Aggregate][]events.Event, uint64, error) {
	want := make(map[events.Aggregate]bool, len(aggs))
	for _, a := range aggs {
		if !events.ValidID(a.ID) || !events.ValidID(string(a.Kind)) {
			return nil, 0, fmt.Errorf("%w: aggregate %v", events.ErrMalformed, a)
		}
		want[a] = true
	}
	last, err := s.LastSequence(ctx)
	if err != nil {
		return nil, 0, err
	}
	out := make(map[events.Aggregate][]events.Event, len(aggs))
	if last == 0 || len(aggs) == 0 {
		return out, last, nil
	}
	err = s.consume(ctx, 1, last, func(m jetstream.Msg, seq uint64) error {
		a, ok := aggregateOf(m.Subject())
		if !ok || !want[a] {
			return nil
		}
		e, err := events.Decode(m.Subject(), events.Header(m.Headers()), m.Data(), seq)
		if err != nil {
			return err
		}
		out[a] = append(out[a], e)
		return nil
	})
	var cb callbackError
	if errors.As(err, &cb) {
		err = cb.err
	}
	if err != nil {
		return nil, 0, err
	}
	return out, last, nil
}

// aggregateOf reads the aggregate of a subject crossrank.<kind>.<id>.<event>.
func aggregateOf(subject string) (events.Aggregate, bool) {
	rest, ok := strings.CutPrefix(subject, events.SubjectPrefix)
	if !ok {
		return events.Aggregate{}, false
	}
	kind, rest, ok := strings.Cut(rest, ".")
	if !ok {
		return events.Aggregate{}, false
	}
	id, _, ok := strings.Cut(rest, ".")
	return events.Aggregate{Kind: events.Kind(kind), ID: id}, ok
}
