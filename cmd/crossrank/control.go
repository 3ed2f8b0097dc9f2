package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The control socket: while `crossrank serve` owns a data folder, the
// command line's store commands (user, token, seed, verify, export) run
// inside the server, on its event store and read models, instead of
// starting a second NATS server on the same files. The socket is a unix
// socket in the data folder, mode 0600, and on Linux only peers of the
// server's own user (or root) are answered.
//
// The protocol is JSON lines: one controlRequest from the client, then
// controlFrames from the server — output as it is written, and a last
// frame with the exit code.

// controlRequest is a command line sent to a running server.
type controlRequest struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// controlFrame is a piece of the answer.
type controlFrame struct {
	Out   string `json:"out,omitempty"`
	Err   string `json:"err,omitempty"`
	Done  bool   `json:"done,omitempty"`
	Exit  int    `json:"exit,omitempty"`
	Error string `json:"error,omitempty"`
}

// maxControlRequest bounds a request: a command line, not a payload.
const maxControlRequest = 1 << 20

// controlTimeout bounds one command run for the command line.
const controlTimeout = 10 * time.Minute

// socketPath is the control socket of a data folder: in the folder, or —
// where that path is too long for a unix socket address (108 bytes) — in
// the temporary folder under a name derived from the data folder's path.
// Clients read it from the LOCK file, so either place is found.
func socketPath(data string) (string, error) {
	abs, err := filepath.Abs(data)
	if err != nil {
		return "", err
	}
	p := filepath.Join(abs, "crossrank.sock")
	if len(p) < 100 {
		return p, nil
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(os.TempDir(), "crossrank-"+hex.EncodeToString(sum[:8])+".sock"), nil
}

// controlServer answers the command line while a server runs.
type controlServer struct {
	ln  net.Listener
	e   *env
	log *slog.Logger
	ctx context.Context
	wg  sync.WaitGroup
}

// listenControl opens the control socket of e's data folder and records it
// in the LOCK file. The caller holds the folder's lock, so a socket file
// left there is stale (its server was killed) and is replaced.
func listenControl(ctx context.Context, data string, e *env, log *slog.Logger) (*controlServer, error) {
	path, err := socketPath(data)
	if err != nil {
		return nil, err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("control socket: %w", err)
	}
	if err := e.lock.record(path); err != nil {
		ln.Close()
		return nil, fmt.Errorf("control socket: %w", err)
	}
	cs := &controlServer{ln: ln, e: e, log: log, ctx: ctx}
	cs.wg.Go(cs.accept)
	return cs, nil
}

func (cs *controlServer) accept() {
	for {
		conn, err := cs.ln.Accept()
		if err != nil {
			return
		}
		cs.wg.Go(func() {
			defer conn.Close()
			if err := samePeer(conn); err != nil {
				cs.log.Warn("control socket: refused a peer", "err", err)
				return
			}
			cs.serve(conn)
		})
	}
}

// close stops listening (removing the socket file) and waits for the
// commands in progress.
func (cs *controlServer) close() {
	cs.ln.Close()
	cs.e.lock.record("")
	cs.wg.Wait()
}

// serve runs one command for a client.
func (cs *controlServer) serve(conn net.Conn) {
	var mu sync.Mutex
	enc := json.NewEncoder(conn)
	send := func(f controlFrame) {
		mu.Lock()
		defer mu.Unlock()
		enc.Encode(f)
	}
	done := func(code int, err error) {
		f := controlFrame{Done: true, Exit: code}
		if err != nil {
			f.Error = err.Error()
		}
		send(f)
	}
	r := bufio.NewReader(io.LimitReader(conn, maxControlRequest))
	line, err := r.ReadBytes('\n')
	var req controlRequest
	if err == nil {
		err = json.Unmarshal(line, &req)
	}
	if err != nil {
		done(2, fmt.Errorf("control socket: unreadable request: %v", err))
		return
	}
	parse, ok := storeParsers[req.Command]
	if !ok {
		done(2, fmt.Errorf("%q cannot be run through a server", req.Command))
		return
	}
	stderr := frameWriter(func(s string) { send(controlFrame{Err: s}) })
	sc, err := parse(req.Args, stderr)
	if err != nil {
		if errors.Is(err, errHelp) {
			done(0, nil)
		} else {
			done(exitCode(err, 2), err)
		}
		return
	}
	if sc.alone != "" {
		done(1, errors.New(sc.alone))
		return
	}
	ctx, cancel := context.WithTimeout(cs.ctx, controlTimeout)
	defer cancel()
	// A client that hangs up (Ctrl-C) cancels its command.
	go func() {
		r.ReadByte()
		cancel()
	}()
	// The password flags are in the arguments: only the command is logged.
	cs.log.Info("running a command for the command line", "command", req.Command, "sub", firstArg(req.Args))
	served := *cs.e
	served.served = true
	stdout := frameWriter(func(s string) { send(controlFrame{Out: s}) })
	err = sc.run(ctx, &served, stdout)
	if err == nil {
		// What the command wrote is visible to the site when it returns:
		// a token it issued works on the very next request.
		err = cs.e.caughtUp(ctx)
	}
	done(exitCode(err, 1), err)
}

func firstArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// exitCode is err's exit status: 0 for nil, an exitError's own, or def.
func exitCode(err error, def int) int {
	var exit exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.code
	}
	return def
}

// frameWriter turns writes into frames.
type frameWriter func(string)

func (f frameWriter) Write(b []byte) (int, error) {
	f(string(b))
	return len(b), nil
}

// errNoAnswer is a control socket that could not be reached: the command
// was not sent, so nothing was changed.
var errNoAnswer = errors.New("no answer")

// sendControl sends req to the server on socket, copies its output to
// stdout and stderr, and returns the command's exit status and error.
func sendControl(ctx context.Context, socket string, req controlRequest, stdout, stderr io.Writer) (int, error) {
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	conn, err := d.DialContext(dctx, "unix", socket)
	cancel()
	if err != nil {
		return 0, fmt.Errorf("%w: %v", errNoAnswer, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if err := json.NewEncoder(conn).Encode(req); err != nil {
		return 0, fmt.Errorf("%w: %v", errNoAnswer, err)
	}
	dec := json.NewDecoder(bufio.NewReader(conn))
	for {
		var f controlFrame
		if err := dec.Decode(&f); err != nil {
			return 0, fmt.Errorf("the connection ended before the command's result came (%v): check whether it took effect", err)
		}
		io.WriteString(stdout, f.Out)
		io.WriteString(stderr, f.Err)
		if f.Done {
			if f.Error != "" {
				return f.Exit, errors.New(f.Error)
			}
			return f.Exit, nil
		}
	}
}
