package bench

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/server"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/auth"
)

// webServer is the web server as `crossrank serve` wires it (server.New),
// in this process, on a loopback port.
type webServer struct {
	url      string
	read     *projections.Store
	commands *handler.Handler
	stop     func()
}

// startWeb opens (or creates) the read models of b, follows the stream
// and serves HTTP. Request logs are formatted as serve formats them, then
// discarded.
func startWeb(ctx context.Context, b *dataStore) (*webServer, error) {
	read, err := projections.Open(b.readPath())
	if err != nil {
		return nil, err
	}
	runCtx, stopRunner := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = read.Run(runCtx, b.events, nil) })
	last, err := b.events.LastSequence(ctx)
	if err == nil {
		err = waitRead(ctx, read, last, 5*time.Minute)
	}
	cleanup := func() { stopRunner(); wg.Wait(); read.Close() }
	if err != nil {
		cleanup()
		return nil, err
	}
	srv, err := server.New(server.Config{Events: b.events, Read: read, Addr: "127.0.0.1:0",
		Logger:      slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo})),
		SessionKeys: [][]byte{auth.RandomSessionKey()}})
	if err != nil {
		cleanup()
		return nil, err
	}
	w := &webServer{read: read, commands: srv.Commands}
	ln, err := net.Listen("tcp", srv.HTTP.Addr)
	if err != nil {
		cleanup()
		return nil, err
	}
	hs := srv.HTTP
	go hs.Serve(ln)
	w.url = "http://" + ln.Addr().String()
	w.stop = func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
		cleanup()
	}
	return w, nil
}

// waitRead waits until read has applied seq, for at most limit: WaitFor
// alone gives up after 5 seconds, and a loaded machine's read models may
// take longer.
func waitRead(ctx context.Context, read *projections.Store, seq uint64, limit time.Duration) error {
	wctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	err := read.WaitFor(wctx, seq)
	for errors.Is(err, projections.ErrWaitTimeout) && wctx.Err() == nil {
		err = read.WaitFor(wctx, seq)
	}
	return err
}

// transport is a client transport for many connections to one host.
func transport(conns int) *http.Transport {
	return &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: 0,
		IdleConnTimeout: time.Minute, DisableCompression: true, ForceAttemptHTTP2: false}
}
