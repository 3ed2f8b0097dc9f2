package jetstream

import (
	"context"
	"errors"
	"fmt"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/synadia-io/orbit.go/jetstreamext"
)

// codeWrongLastMsgID means the stream's last event is not the one expected
// (Nats-Expected-Last-Msg-Id, JSStreamWrongLastMsgIDErrF); nats.go has no
// constant for it.
const codeWrongLastMsgID jetstream.ErrorCode = 10070

// MaxBatch is the most events one Append stores by default: nats-server's
// default limit of messages in an atomic batch (JetStreamLimits.MaxBatchSize,
// 1000). Config.MaxBatch raises it for a server configured higher, as the
// embedded one is (EmbeddedMaxBatch).
const MaxBatch = 1000

// batchAckEvery paces a large batch: the server acknowledges every
// batchAckEvery-th message, so a publisher never runs more than that far
// ahead of the stream's ingest queue.
const batchAckEvery = 500

// JetStream error codes that mean "the aggregate moved on since the expected
// sequence", or "these ids are already stored".
const (
	codeWrongLastSeq      = jetstream.JSErrCodeStreamWrongLastSequence         // 10071
	codeWrongLastSeqConst = jetstream.JSErrCodeStreamWrongLastSequenceConstant // 10164: R>1, subject in flight
	codeBatchDuplicate    = jetstreamext.JSErrCodeBatchPublishDuplicateMsgID   // 10201
	codeMsgTooLarge       = jetstream.JSErrCodeStreamMessageExceedsMaximum     // 10054
	codeBatchTooLarge     = jetstreamext.JSErrCodeBatchPublishExceedsLimit     // 10199
	codeBatchIncomplete   = jetstreamext.JSErrCodeBatchPublishIncomplete       // 10176: abandoned, try again
)

// Append stores evs, all or nothing, if every expectation holds, and returns
// the stream sequence of the last event.
//
// One event is a plain publish. Several are one atomic batch (ADR-50,
// nats-server ≥ 2.12), following the server's rules as of 2.15:
//   - Nats-Msg-Id is allowed on every message; a duplicate id (already in the
//     window, or twice in the batch) rejects the whole batch with 10201
//     instead of a per-message "duplicate" ack.
//   - Nats-Expected-Last-Subject-Sequence(-Subject) may sit on any message,
//     but the check reads the stream as it was before the batch; it is put
//     on the first message of each aggregate, where that is plainly right.
//   - Nats-Expected-Last-Sequence only on the first message;
//     Nats-Expected-Last-Msg-Id is refused (Expectation.After: one event only).
//   - At most 1000 messages (server default) and 50 batches in flight per
//     stream (429 beyond, reported as ErrUnavailable).
//
// A wrong-last-sequence error (10071; 10164 on R>1) or a batch duplicate
// (10201) triggers a reload: if our first event is stored after the expected
// sequence, with the rest right after it, this call is a retry of a write
// that succeeded and returns its sequence; otherwise ErrConflict — except
// after 10164 (the subject had a write in flight), which is sent again a
// few times first, since it says nothing yet about the expectation.
//
// ErrUnavailable after a timeout leaves the outcome unknown (the server may
// have stored the events and lost the ack): appending the same events again
// is safe and settles it.
func (s *Store) Append(ctx context.Context, expect []events.Expectation, evs ...events.Event) (uint64, error) {
	seq, _, err := s.AppendReport(ctx, expect, evs...)
	return seq, err
}

// AppendReport is Append that also reports whether the events were stored
// already, before this call: a retry the server recognised by event id
// (a duplicate ack), or one found by the reload after a conflict. When it
// reports false, this call stored the events, each expectation held, and
// so the caller's view of the aggregates plus these events is exact.
func (s *Store) AppendReport(ctx context.Context, expect []events.Expectation, evs ...events.Event) (last uint64, retry bool, err error) {
	msgs, ctx, cancel, err := s.prepare(ctx, expect, evs)
	if err != nil {
		return 0, false, err
	}
	defer cancel()
	if err := s.diskError(); err != nil {
		return 0, false, err
	}
	for attempt := 0; ; attempt++ {
		var seq uint64
		if len(msgs) == 1 {
			seq, retry, err = s.publishOne(ctx, msgs[0])
		} else {
			seq, err = s.publishBatch(ctx, msgs)
		}
		if err == nil {
			return seq, retry, nil
		}
		var apiErr *jetstream.APIError
		if !errors.As(err, &apiErr) {
			// No answer: a stream that failed to write on its disk
			// answers none; say which disk.
			if derr := s.diskError(); derr != nil {
				return 0, false, derr
			}
		}
		if errors.As(err, &apiErr) {
			switch apiErr.ErrorCode {
			case codeWrongLastSeq, codeWrongLastSeqConst, codeBatchDuplicate:
				seq, rerr := s.reconcile(ctx, expect, evs, err)
				// 10164 means another write to the subject was still being
				// applied when ours arrived (on a replicated stream the
				// leader can answer one append before it has cleared it):
				// not a verdict on the expectation. Ours is not stored, so
				// send it again shortly; the answer after that is final.
				if apiErr.ErrorCode == codeWrongLastSeqConst && errors.Is(rerr, events.ErrConflict) && attempt < inFlightRetries {
					if werr := sleepCtx(ctx, time.Duration(5<<attempt)*time.Millisecond); werr != nil {
						return 0, false, rerr
					}
					continue
				}
				return seq, rerr == nil, rerr
			case codeWrongLastMsgID:
				// A fresh event stored before would have been a duplicate,
				// acknowledged before any expectation is checked.
				return 0, false, fmt.Errorf("%w: %v", events.ErrConflict, err)
			case codeMsgTooLarge, codeBatchTooLarge:
				return 0, false, fmt.Errorf("%w: %v", events.ErrTooLarge, err)
			}
		}
		return 0, false, s.wrap("append", err)
	}
}

// Chains reports whether AppendSent's ordering holds on this stream: one
// server applies its appends in the order they arrive. On a replicated
// stream the leader checks an expected last event id against what it has
// applied, not what it has proposed, so a chain could pass over a write
// still in flight: AppendSent is not offered there.
func (s *Store) Chains() bool { return !s.replicated }

// AppendSent appends one event like AppendReport, and calls sent once the
// message is on the connection, before its acknowledgement: a caller that
// holds a lock from before the call until sent puts its appends on the
// wire, and so in the stream, in the order it took the lock. A chain of
// appends each expecting the one before it as the stream's last
// (Expectation.After) is then stored whole, or broken where a link fails
// and refused from there on. sent is not called when the message is not
// sent. Nothing is sent again: any failure is returned (ErrConflict when an
// expectation failed, ErrUnavailable when the outcome is unknown).
func (s *Store) AppendSent(ctx context.Context, expect []events.Expectation, sent func(), ev events.Event) (last uint64, retry bool, err error) {
	msgs, ctx, cancel, err := s.prepare(ctx, expect, []events.Event{ev})
	if err != nil {
		return 0, false, err
	}
	defer cancel()
	f, err := s.js.PublishMsgAsync(msgs[0].msg, msgs[0].options()...)
	if err != nil {
		return 0, false, s.wrap("append", err)
	}
	sent()
	select {
	case ack := <-f.Ok():
		return ack.Sequence, ack.Duplicate, nil
	case err = <-f.Err():
	case <-ctx.Done():
		return 0, false, s.wrap("append", ctx.Err())
	}
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.ErrorCode {
		case codeWrongLastSeq, codeWrongLastSeqConst, codeWrongLastMsgID:
			// Not reloaded as AppendReport does: the caller decides again
			// on what is stored, and finds its event if a retry stored it.
			return 0, false, fmt.Errorf("%w: %v", events.ErrConflict, err)
		case codeMsgTooLarge:
			return 0, false, fmt.Errorf("%w: %v", events.ErrTooLarge, err)
		}
	}
	return 0, false, s.wrap("append", err)
}

// inFlightRetries bounds how often an append refused because its subject
// was in flight (10164) is sent again: 5, 10, 20, 40, 80 ms.
const inFlightRetries = 5

// sleepCtx waits for d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// pending is one message to publish with the expectations it carries: the
// aggregate's, and on the first message the stream's, if any.
type pending struct {
	msg    *nats.Msg
	expect *events.Expectation
	stream *events.Expectation
}

// publishOne publishes one message and reports whether the server
// recognised it as a duplicate of one it stored before.
func (s *Store) publishOne(ctx context.Context, p pending) (uint64, bool, error) {
	ack, err := s.js.PublishMsg(ctx, p.msg, append(p.options(), jetstream.WithRetryAttempts(0))...) // fail fast; the caller's retry is safe
	if err != nil {
		return 0, false, err
	}
	// A duplicate ack carries the sequence the event was first stored at.
	return ack.Sequence, ack.Duplicate, nil
}

// options are the publish options of a message sent alone: its id and
// expectations.
func (p pending) options() []jetstream.PublishOpt {
	opts := []jetstream.PublishOpt{jetstream.WithMsgID(p.msg.Header.Get(events.HeaderMsgID))}
	if e := p.expect; e != nil {
		opts = append(opts, jetstream.WithExpectLastSequenceForSubject(e.LastSeq, e.Aggregate.Filter()))
	}
	switch {
	case p.stream == nil:
	case p.stream.After != "":
		opts = append(opts, jetstream.WithExpectLastMsgID(p.stream.After))
	default:
		opts = append(opts, jetstream.WithExpectLastSequence(p.stream.LastSeq))
	}
	return opts
}

func (s *Store) publishBatch(ctx context.Context, ps []pending) (uint64, error) {
	msgs := make([]*nats.Msg, len(ps))
	for i, p := range ps {
		if e := p.expect; e != nil {
			p.msg.Header.Set(jetstream.ExpectedLastSubjSeqHeader, strconv.FormatUint(e.LastSeq, 10))
			p.msg.Header.Set(jetstream.ExpectedLastSubjSeqSubjHeader, e.Aggregate.Filter())
		}
		if p.stream != nil {
			p.msg.Header.Set(jetstream.ExpectedLastSeqHeader, strconv.FormatUint(p.stream.LastSeq, 10))
		}
		msgs[i] = p.msg
	}
	// AckFirst: the server confirms it accepted the batch (stream found,
	// batching enabled, capacity) before we stream the rest.
	fc := jetstreamext.BatchFlowControl{AckFirst: true, AckTimeout: s.timeout}
	if len(msgs) > batchAckEvery {
		fc.AckEvery = batchAckEvery
	}
	ack, err := jetstreamext.PublishMsgBatch(ctx, s.js, msgs, fc)
	if err != nil {
		return 0, err
	}
	return ack.Sequence, nil
}

// prepare encodes an append's messages and bounds ctx for it (cancel when
// done), or says why it cannot be sent.
func (s *Store) prepare(ctx context.Context, expect []events.Expectation, evs []events.Event) ([]pending, context.Context, context.CancelFunc, error) {
	msgs, err := s.messages(expect, evs)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := s.connected(); err != nil {
		return nil, nil, nil, err
	}
	ctx, cancel := s.boundBatch(ctx, len(msgs))
	return msgs, ctx, cancel, nil
}

// messages is the package's messages, refusing an expectation of the last
// event id on a replicated stream (see Chains): there nats-server 2.15.2
// stopped answering appends for seconds after one such expectation failed.
func (s *Store) messages(expect []events.Expectation, evs []events.Event) ([]pending, error) {
	if s.replicated && slices.ContainsFunc(expect, func(x events.Expectation) bool { return x.Stream && x.After != "" }) {
		return nil, fmt.Errorf("jetstream: expecting the last event id on a replicated stream: %w", errors.ErrUnsupported)
	}
	if len(evs) > s.maxBatch {
		return nil, fmt.Errorf("%w: %d events > %d", events.ErrTooLarge, len(evs), s.maxBatch)
	}
	return messages(expect, evs)
}

// messages encodes evs and places each expectation on the first message of
// its aggregate, or on a free message when the batch writes nothing to it
// (the check names the aggregate by filter, so any message can carry it).
func messages(expect []events.Expectation, evs []events.Event) ([]pending, error) {
	if len(evs) == 0 {
		return nil, fmt.Errorf("%w: no events to append", events.ErrMalformed)
	}
	var stream *events.Expectation
	perAggregate := expect[:0:0]
	for i := range expect {
		if !expect[i].Stream {
			perAggregate = append(perAggregate, expect[i])
			continue
		}
		if stream != nil {
			return nil, fmt.Errorf("%w: two expectations for the stream", events.ErrMalformed)
		}
		// The server refuses Nats-Expected-Last-Msg-Id in an atomic batch.
		if expect[i].After != "" && len(evs) > 1 {
			return nil, fmt.Errorf("%w: an append of %d events cannot expect the last event id", events.ErrMalformed, len(evs))
		}
		stream = &expect[i]
	}
	expect = perAggregate
	if len(expect) > len(evs) {
		return nil, fmt.Errorf("%w: %d expectations for %d events (one per message)", events.ErrMalformed, len(expect), len(evs))
	}
	ps := make([]pending, len(evs))
	ids := make(map[string]bool, len(evs))
	for i, e := range evs {
		subject, h, body, err := events.Encode(e)
		if err != nil {
			return nil, err
		}
		if err := readable(subject, h, body); err != nil {
			return nil, fmt.Errorf("event %d (%s): %w", i, e.ID, err)
		}
		if ids[e.ID] {
			return nil, fmt.Errorf("%w: event id %s twice in one append", events.ErrMalformed, e.ID)
		}
		ids[e.ID] = true
		ps[i].msg = &nats.Msg{Subject: subject, Header: nats.Header(h), Data: body}
	}
	seen := make(map[events.Aggregate]bool, len(expect))
	var spare []int
	for i := range expect {
		x := &expect[i]
		if !events.ValidID(x.Aggregate.ID) || !events.ValidID(string(x.Aggregate.Kind)) {
			return nil, fmt.Errorf("%w: expectation for %v", events.ErrMalformed, x.Aggregate)
		}
		if seen[x.Aggregate] {
			return nil, fmt.Errorf("%w: two expectations for %v", events.ErrMalformed, x.Aggregate)
		}
		seen[x.Aggregate] = true
		placed := false
		for j := range evs {
			if ps[j].expect == nil && evs[j].Aggregate() == x.Aggregate {
				ps[j].expect, placed = x, true
				break
			}
		}
		if !placed {
			spare = append(spare, i)
		}
	}
	// The stream's expectation goes on the first message (the only one an
	// atomic batch allows it on); it reads the stream as it was before.
	ps[0].stream = stream
	// len(expect) <= len(evs), so there is a free message for every spare.
	for _, i := range spare {
		for j := range ps {
			if ps[j].expect == nil {
				ps[j].expect = &expect[i]
				break
			}
		}
	}
	return ps, nil
}

// readable refuses an event that could not be read back exactly: one that
// Decode rejects would stop every replay, and NATS trims header values and
// turns CR/LF into spaces, which would change a stored attribute silently.
func readable(subject string, h events.Header, body []byte) error {
	for k, vs := range h {
		for _, v := range vs {
			if strings.ContainsAny(v, "\r\n") || textproto.TrimString(v) != v {
				return fmt.Errorf("%w: header %s %q does not survive NATS framing", events.ErrMalformed, k, v)
			}
		}
	}
	_, err := events.Decode(subject, h, body, 0)
	return err
}

// diskError is Config.Disk's answer, nil when none was given.
func (s *Store) diskError() error {
	if s.disk == nil {
		return nil
	}
	return s.disk()
}
