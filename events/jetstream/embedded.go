package jetstream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// EmbeddedOptions configures an in-process nats-server. The zero value except
// Dir runs a private single node: no TCP listener, no logging.
type EmbeddedOptions struct {
	// Dir holds the JetStream files (under Dir/jetstream). Required.
	Dir string
	// Listen ("127.0.0.1:4222") also accepts TCP clients, so the nats CLI can
	// inspect the stream. Empty: in-process connections only.
	Listen string
	// Name is the server name; cluster nodes need distinct names.
	// Default "crossrank".
	Name string
	// Cluster, when set, makes this server one node of a JetStream cluster.
	Cluster *ClusterOptions
	// Logger receives the server log; nil turns server logging off.
	Logger *slog.Logger
	// StartTimeout bounds the wait for the server to accept connections.
	// Default 10s.
	StartTimeout time.Duration
	// Bulk turns SyncAlways off, for a server that only loads a store
	// and syncs it once at the end (`crossrank restore`): a stream
	// restore stores message by message, and an fsync each made 90,000
	// events take minutes and trip the server's 5-second restore stall
	// timeout. Never for a server that acknowledges writes to clients.
	Bulk bool
	// StorageLog receives the store's notices about its disk (full,
	// writing again; storage.go), apart from the server log; nil: none.
	StorageLog *slog.Logger
}

// ClusterOptions makes an embedded server a cluster node. Each node lists the
// route URLs of the others (or of all nodes; a route to itself is ignored).
type ClusterOptions struct {
	Name   string   // cluster name, the same on every node
	Listen string   // route listener, "127.0.0.1:6222"
	Routes []string // "nats://127.0.0.1:6223", …
}

// EmbeddedMaxBatch is the embedded server's limit of messages in one
// atomic batch (jetstream { limits { batch { max_msgs } } }): room for an edition that releases tens of
// thousands of proposals. The server stages a batch on disk and holds it
// in memory only while it commits it.
const EmbeddedMaxBatch = 100_000

// Embedded is a running in-process nats-server with JetStream.
type Embedded struct {
	srv     *server.Server
	opts    *server.Options
	storage *storageWatch // nil on a cluster node or a bulk load
}

// StartEmbedded starts a nats-server with JetStream in this process and waits
// until it accepts connections.
//
// Every write is fsynced before it is acknowledged (SyncAlways): the default
// 2-minute sync interval loses acknowledged writes on power loss (Jepsen,
// NATS 2.12.1), and an editorial log must not.
func StartEmbedded(opts EmbeddedOptions) (*Embedded, error) {
	sopts, err := serverOptions(opts)
	if err != nil {
		return nil, err
	}
	srv, err := server.NewServer(sopts)
	if err != nil {
		return nil, fmt.Errorf("nats-server: %w", err)
	}
	if opts.Logger != nil {
		srv.SetLogger(slogLogger{opts.Logger}, opts.Logger.Enabled(context.Background(), slog.LevelDebug), false)
	}
	srv.Start()
	wait := opts.StartTimeout
	if wait <= 0 {
		wait = 10 * time.Second
	}
	if !srv.ReadyForConnections(wait) {
		srv.Shutdown()
		srv.WaitForShutdown()
		return nil, fmt.Errorf("nats-server: not ready after %s", wait)
	}
	e := &Embedded{srv: srv, opts: sopts}
	if !opts.Bulk && opts.Cluster == nil {
		e.watchStorage(sopts.StoreDir, opts.StorageLog)
	}
	return e, nil
}

func serverOptions(opts EmbeddedOptions) (*server.Options, error) {
	if opts.Dir == "" {
		return nil, errors.New("nats-server: EmbeddedOptions.Dir is required")
	}
	name := opts.Name
	if name == "" {
		name = "crossrank"
	}
	s := &server.Options{
		ServerName: name,
		JetStream:  true,
		StoreDir:   filepath.Join(opts.Dir, "jetstream"),
		SyncAlways: !opts.Bulk,
		NoSigs:     true, // the host process owns its signals
		NoLog:      opts.Logger == nil,
		DontListen: opts.Listen == "",
		// One edition is one atomic batch (an event per proposal it
		// releases, its parts and its head): the default 1000 messages
		// would cap an edition near 990 proposals.
		JetStreamLimits: server.JSLimitOpts{MaxBatchSize: EmbeddedMaxBatch},
	}
	if opts.Listen != "" {
		host, port, err := splitHostPort(opts.Listen)
		if err != nil {
			return nil, fmt.Errorf("nats-server: listen: %w", err)
		}
		s.Host, s.Port = host, port
	}
	if c := opts.Cluster; c != nil {
		if c.Name == "" || c.Listen == "" || opts.Name == "" {
			return nil, errors.New("nats-server: a cluster node needs a cluster name, a route listener and a server name")
		}
		host, port, err := splitHostPort(c.Listen)
		if err != nil {
			return nil, fmt.Errorf("nats-server: cluster listen: %w", err)
		}
		s.Cluster = server.ClusterOpts{Name: c.Name, Host: host, Port: port}
		s.Routes = server.RoutesFromStr(strings.Join(c.Routes, ","))
	}
	return s, nil
}

func splitHostPort(addr string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		return "", 0, fmt.Errorf("port %q: %w", p, err)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return host, port, nil
}

// Connect opens an in-process client connection (no TCP). It never buffers
// while disconnected, like the package-level Connect.
func (e *Embedded) Connect(name string, opts ...nats.Option) (*nats.Conn, error) {
	all := append([]nats.Option{
		nats.InProcessServer(e.srv),
		nats.Name(name),
		nats.ReconnectBufSize(-1),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
	}, opts...)
	nc, err := nats.Connect("", all...)
	if err != nil {
		return nil, fmt.Errorf("%w: connect in-process: %v", events.ErrUnavailable, err)
	}
	return nc, nil
}

// ClientURL returns the URL TCP clients connect to, or "" when the server
// does not listen.
func (e *Embedded) ClientURL() string {
	if e.srv.Addr() == nil {
		return ""
	}
	return e.srv.ClientURL()
}

// Server returns the underlying nats-server, for tests and diagnostics.
func (e *Embedded) Server() *server.Server { return e.srv }

// Shutdown stops the server and waits until it has stopped, so the store
// directory can be reopened at once.
func (e *Embedded) Shutdown() {
	if e.storage != nil {
		e.storage.close()
	}
	e.srv.Shutdown()
	e.srv.WaitForShutdown()
}

// slogLogger adapts slog to the nats-server logger.
type slogLogger struct{ l *slog.Logger }

func (s slogLogger) Noticef(format string, v ...any) { s.l.Info(fmt.Sprintf(format, v...)) }
func (s slogLogger) Warnf(format string, v ...any)   { s.l.Warn(fmt.Sprintf(format, v...)) }
func (s slogLogger) Fatalf(format string, v ...any)  { s.l.Error(fmt.Sprintf(format, v...)) }
func (s slogLogger) Errorf(format string, v ...any)  { s.l.Error(fmt.Sprintf(format, v...)) }
func (s slogLogger) Debugf(format string, v ...any)  { s.l.Debug(fmt.Sprintf(format, v...)) }
func (s slogLogger) Tracef(format string, v ...any)  { s.l.Debug(fmt.Sprintf(format, v...)) }

// ServerVersion is the version of the nats-server this binary embeds.
func ServerVersion() string { return server.VERSION }
