// Package jetstream stores Crossrank events in a NATS JetStream stream: one
// stream, CROSSRANK, on crossrank.>, one subject per event
// (crossrank.<aggregate>.<id>.<event>), optimistic concurrency per aggregate
// through the expected-last-subject-sequence headers, and multi-event
// appends as atomic batches.
//
// It also runs nats-server in-process (StartEmbedded) for a single machine,
// and connects to an external server or cluster (Connect) for scale-out.
package jetstream

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// StreamName is the stream holding every Crossrank event.
const StreamName = "CROSSRANK"

// DuplicateWindow is how long the server remembers event ids (Nats-Msg-Id)
// to drop a client's retry; past it, a retry is recognised by reloading the
// aggregate instead (see Append).
const DuplicateWindow = 2 * time.Minute

// DefaultTimeout bounds one round trip to the server.
const DefaultTimeout = 3 * time.Second

// Config configures the stream and the store.
type Config struct {
	// Replicas of the stream: 1 embedded, 3 on a cluster. Default 1.
	Replicas int
	// Timeout bounds each request to the server when the caller's context
	// has no earlier deadline. Default DefaultTimeout.
	Timeout time.Duration
	// MaxBatch is the most events one Append stores: the server's
	// limit (jetstream { limits { batch { max_msgs: N } } }).
	// Default MaxBatch, nats-server's default; Embedded.MaxBatch for the
	// embedded server.
	MaxBatch int
	// Disk reports why the server cannot store writes now (the embedded
	// server's StorageError: a full disk, named); an append then fails at
	// once with it instead of waiting for an answer that never comes.
	// nil: not checked.
	Disk func() error
}

// Store is the JetStream event store. It is safe for concurrent use.
type Store struct {
	nc         *nats.Conn
	js         jetstream.JetStream
	timeout    time.Duration
	maxBatch   int
	replicated bool // followers may answer direct gets behind the leader
	disk       func() error
	direct     *directGets
}

var _ events.Store = (*Store)(nil)

// Connect connects to an external NATS server or cluster (comma-separated
// URLs). It reconnects forever and never buffers while disconnected, so a
// publish during an outage fails at once instead of being sent later behind
// the caller's back.
func Connect(url, name string, opts ...nats.Option) (*nats.Conn, error) {
	all := append([]nats.Option{
		nats.Name(name),
		nats.MaxReconnects(-1),
		nats.ReconnectBufSize(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.Timeout(2 * time.Second),
		nats.PingInterval(10 * time.Second),
	}, opts...)
	nc, err := nats.Connect(url, all...)
	if err != nil {
		return nil, fmt.Errorf("%w: connect %s: %v", events.ErrUnavailable, url, err)
	}
	return nc, nil
}

// Open creates or updates the CROSSRANK stream and returns a store on it.
//
// nc must not buffer while disconnected (nats.ReconnectBufSize(-1), as set by
// Connect and Embedded.Connect): a buffered publish whose ack timed out would
// still reach the stream after a reconnect, and the caller, told the store
// was unavailable, would retry with a fresh decision.
func Open(ctx context.Context, nc *nats.Conn, cfg Config) (*Store, error) {
	if nc.Opts.ReconnectBufSize != -1 {
		return nil, errors.New("jetstream: the NATS connection must not buffer while disconnected (use nats.ReconnectBufSize(-1))")
	}
	if cfg.Replicas <= 0 {
		cfg.Replicas = 1
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	js, err := jetstream.New(nc, jetstream.WithDefaultTimeout(cfg.Timeout))
	if err != nil {
		return nil, err
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = MaxBatch
	}
	s := &Store{nc: nc, js: js, timeout: cfg.Timeout, maxBatch: cfg.MaxBatch, direct: newDirectGets(nc), disk: cfg.Disk}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	// Never scale an existing stream down: one command run without
	// --replicas 3 against a cluster must not drop the stream to R1.
	if existing, err := js.Stream(ctx, StreamName); err == nil {
		if r := existing.CachedInfo().Config.Replicas; r > cfg.Replicas {
			cfg.Replicas = r
		}
	}
	st, err := js.CreateOrUpdateStream(ctx, StreamConfig(cfg.Replicas))
	if err != nil {
		return nil, s.wrap("open stream", err)
	}
	s.replicated = st.CachedInfo().Config.Replicas > 1
	return s, nil
}

// StreamConfig returns the configuration of the CROSSRANK stream.
func StreamConfig(replicas int) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        StreamName,
		Description: "Crossrank events (CloudEvents binary mode, JSON bodies)",
		Subjects:    []string{events.SubjectPrefix + ">"},
		Storage:     jetstream.FileStorage,
		Retention:   jetstream.LimitsPolicy,
		Replicas:    replicas,
		// Events are never changed or removed.
		DenyDelete: true,
		DenyPurge:  true,
		// Load reads an aggregate with a direct batch get, served by any
		// replica without a consumer.
		AllowDirect:        true,
		AllowAtomicPublish: true,
		Duplicates:         DuplicateWindow,
		MaxAge:             0, // no age limit: the log is the system of record
		Discard:            jetstream.DiscardNew,
	}
}

// Ping reports whether the stream is reachable, for readiness checks.
func (s *Store) Ping(ctx context.Context) error {
	_, err := s.info(ctx)
	return err
}

// LastSequence returns the sequence of the newest event in the stream.
func (s *Store) LastSequence(ctx context.Context) (uint64, error) {
	info, err := s.info(ctx)
	if err != nil {
		return 0, err
	}
	return info.State.LastSeq, nil
}

func (s *Store) info(ctx context.Context) (*jetstream.StreamInfo, error) {
	if err := s.connected(); err != nil {
		return nil, err
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	st, err := s.js.Stream(ctx, StreamName)
	if err != nil {
		return nil, s.wrap("stream info", err)
	}
	return st.CachedInfo(), nil
}

// bound gives ctx the store's timeout unless it already ends sooner.
func (s *Store) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= s.timeout {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, s.timeout)
}

// boundBatch is bound for an append of n messages: a batch of many
// thousand is streamed and then checked and stored at its commit, so it
// gets one more timeout per thousand messages.
func (s *Store) boundBatch(ctx context.Context, n int) (context.Context, context.CancelFunc) {
	d := s.timeout * time.Duration(1+n/1000)
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= d {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

// connected fails fast when the connection is down: waiting for a reconnect
// would hold a user's request for seconds, and nothing may be buffered.
func (s *Store) connected() error { return connected(s.nc) }

// wrap classifies err: transport failures wrap events.ErrUnavailable so
// callers answer 503 and may retry; anything else keeps its own identity.
func (s *Store) wrap(op string, err error) error {
	if unavailable(err) {
		return fmt.Errorf("%w: %s: %v", events.ErrUnavailable, op, err)
	}
	return fmt.Errorf("jetstream: %s: %w", op, err)
}

func unavailable(err error) bool {
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) {
		// 429: too many inflight batches; 503: no quorum / not ready.
		return apiErr.Code == 429 || apiErr.Code == 503 ||
			apiErr.ErrorCode == codeBatchIncomplete
	}
	for _, target := range []error{
		nats.ErrNoResponders, jetstream.ErrNoStreamResponse, nats.ErrTimeout,
		context.DeadlineExceeded, nats.ErrConnectionClosed, nats.ErrConnectionReconnecting,
		nats.ErrReconnectBufExceeded, nats.ErrDisconnected, nats.ErrConnectionDraining,
		nats.ErrNoServers, jetstream.ErrJetStreamNotEnabled, jetstream.ErrNoHeartbeat,
	} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}
