package jetstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/crossrank/crossrank/events"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// reconcile decides whether an append refused for a wrong sequence or a
// duplicate id was a client's retry of an append that succeeded (its ack was
// lost): then our first event is stored after the expected sequence of its
// aggregate, and the rest of the batch follows it contiguously, since an
// atomic batch is committed as one run of sequences.
//
// It reads from the stream leader (STREAM.MSG.GET), not a direct get: on a
// replicated stream a direct get may be answered by a follower that has not
// yet applied the write, and a retry would be misreported as a conflict.
func (s *Store) reconcile(ctx context.Context, expect []events.Expectation, evs []events.Event, cause error) (uint64, error) {
	first := evs[0]
	agg := first.Aggregate()
	seq := uint64(1)
	for _, x := range expect {
		if x.Aggregate == agg {
			seq = x.LastSeq + 1
		}
	}
	for {
		m, err := s.leaderGet(ctx, seq, agg.Filter(), false)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return 0, fmt.Errorf("%w: %v: %v", events.ErrConflict, agg, cause)
		}
		if err != nil {
			return 0, s.wrap("reload after conflict", err)
		}
		if m.Header.Get(events.HeaderID) == first.ID {
			return s.confirmRun(ctx, m.Sequence, evs, cause)
		}
		seq = m.Sequence + 1
	}
}

// confirmRun checks that evs[1:] are stored right after evs[0] at start.
func (s *Store) confirmRun(ctx context.Context, start uint64, evs []events.Event, cause error) (uint64, error) {
	for i := 1; i < len(evs); i++ {
		seq := start + uint64(i)
		m, err := s.leaderGet(ctx, seq, "", false)
		if err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
			return 0, s.wrap("reload after conflict", err)
		}
		if err != nil || m.Header.Get(events.HeaderID) != evs[i].ID {
			// The first id is stored but not with this batch: the caller
			// reused an id. Not a retry; refuse rather than guess.
			return 0, fmt.Errorf("%w: event %s is stored at %d, but not followed by %s: %v",
				events.ErrConflict, evs[0].ID, start, evs[i].ID, cause)
		}
	}
	return start + uint64(len(evs)) - 1, nil
}

type msgGetRequest struct {
	Seq     uint64 `json:"seq,omitempty"`
	NextFor string `json:"next_by_subj,omitempty"`
	LastFor string `json:"last_by_subj,omitempty"`
}

type storedMsg struct {
	Subject  string `json:"subject"`
	Sequence uint64 `json:"seq"`
	RawHdr   []byte `json:"hdrs,omitempty"`
	Data     []byte `json:"data,omitempty"`
	Header   nats.Header
}

// leaderGet returns the first message at or after seq matching filter ("":
// exactly seq), or with last the newest message matching filter, as the
// stream leader has it.
func (s *Store) leaderGet(ctx context.Context, seq uint64, filter string, last bool) (*storedMsg, error) {
	req := msgGetRequest{Seq: seq, NextFor: filter}
	if last {
		req = msgGetRequest{LastFor: filter}
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	resp, err := s.nc.RequestWithContext(ctx, "$JS.API.STREAM.MSG.GET."+StreamName, body)
	if err != nil {
		return nil, err
	}
	var r struct {
		Error   *jetstream.APIError `json:"error"`
		Message *storedMsg          `json:"message"`
	}
	if err := json.Unmarshal(resp.Data, &r); err != nil {
		return nil, fmt.Errorf("jetstream: message get response: %w", err)
	}
	if r.Error != nil {
		if r.Error.ErrorCode == jetstream.JSErrCodeMessageNotFound {
			return nil, jetstream.ErrMsgNotFound
		}
		return nil, r.Error
	}
	if r.Message == nil {
		return nil, jetstream.ErrInvalidJetStreamResponse
	}
	m := r.Message
	if len(m.RawHdr) > 0 {
		if m.Header, err = nats.DecodeHeadersMsg(m.RawHdr); err != nil {
			return nil, fmt.Errorf("jetstream: message %d headers: %w", m.Sequence, err)
		}
	}
	return m, nil
}
