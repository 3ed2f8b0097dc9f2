package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/testnet"
	"github.com/nats-io/nats.go"
)

// The process tests run the real binary: `crossrank serve` children on
// loopback ports, their data in t.TempDir(), NATS either embedded in the
// child or run by the test (to stop and start it under the child's feet).

// demoPassword is every demo user's password in the children.
const demoPassword = "fault-test-password"

// childEnv is the children's environment: the test's, less any CROSSRANK_
// setting that would change what the flags say.
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CROSSRANK_") {
			env = append(env, kv)
		}
	}
	return append(env, "CROSSRANK_DEMO_PASSWORD="+demoPassword)
}

// runCLI runs a crossrank sub-command to completion and returns its
// standard output; a non-zero exit fails the test with everything printed.
func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	out, err := runCLIErr(t, args...)
	if err != nil {
		t.Fatalf("crossrank %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// runCLIErr runs a crossrank sub-command (bounded to a minute) and returns
// its combined output and exit error.
func runCLIErr(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, crossrankBinary(t), args...)
	cmd.Env = childEnv()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// createToken issues an API token for user through the command line.
func createToken(t *testing.T, user string, store ...string) string {
	t.Helper()
	out := runCLI(t, append([]string{"token", "create", user}, store...)...)
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "crk_") {
			return strings.TrimSpace(line)
		}
	}
	t.Fatalf("token create %s printed no token:\n%s", user, out)
	return ""
}

// demoTokens loads the demo ranking into the store that the flags name and
// returns API tokens for the demo editor and both reviewers.
func demoTokens(t *testing.T, store ...string) map[string]string {
	t.Helper()
	runCLI(t, append([]string{"seed"}, store...)...)
	tokens := map[string]string{}
	for _, u := range []string{"editor", "reviewer1", "reviewer2"} {
		tokens[u] = createToken(t, u, store...)
	}
	return tokens
}

// serveProc is a running `crossrank serve` child.
type serveProc struct {
	t      *testing.T
	name   string
	data   string
	args   []string
	cmd    *exec.Cmd
	log    *procLog
	exited chan struct{}
	url    string // http://127.0.0.1:PORT
	// wrap, when set, runs the binary through it: wrap[0] wrap[1:]… crossrank serve …
	wrap []string
}

// startServe starts `crossrank serve --data data --addr 127.0.0.1:0 args…`
// and waits until /readyz answers 200.
func startServe(t *testing.T, name, data string, args ...string) *serveProc {
	t.Helper()
	p := &serveProc{t: t, name: name, data: data, args: args}
	p.start()
	return p
}

func (p *serveProc) start() {
	t := p.t
	t.Helper()
	p.launch()
	select {
	case p.url = <-p.log.url:
	case <-p.exited:
		t.Fatalf("%s exited before serving: %v\n%s", p.name, p.cmd.ProcessState, p.log.tail(40))
	case <-time.After(45 * time.Second):
		t.Fatalf("%s did not start serving within 45s:\n%s", p.name, p.log.tail(40))
	}
	p.waitReady(30 * time.Second)
}

// launch starts the process and returns at once.
func (p *serveProc) launch() {
	t := p.t
	t.Helper()
	all := append([]string{"serve", "--data", p.data, "--addr", "127.0.0.1:0"}, p.args...)
	if len(p.wrap) > 0 {
		all = append(append(append([]string{}, p.wrap[1:]...), crossrankBinary(t)), all...)
		p.cmd = exec.Command(p.wrap[0], all...)
	} else {
		p.cmd = exec.Command(crossrankBinary(t), all...)
	}
	p.cmd.Env = childEnv()
	p.log = newProcLog()
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("%s: start: %v", p.name, err)
	}
	p.exited = make(chan struct{})
	cmd, exited, log := p.cmd, p.exited, p.log
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("%s (pid %d) log, last lines:\n%s", p.name, cmd.Process.Pid, log.tail(40))
		}
	})
}

// restart starts the process again on the same data directory and flags
// (on a new port: the URL changes).
func (p *serveProc) restart() { p.t.Helper(); p.start() }

// waitReady polls /readyz until it answers 200 and returns how long it took.
func (p *serveProc) waitReady(limit time.Duration) time.Duration {
	p.t.Helper()
	start := time.Now()
	last := ""
	for time.Since(start) < limit {
		status, body := p.readyz()
		if status == http.StatusOK {
			return time.Since(start)
		}
		last = fmt.Sprintf("%d %s", status, body)
		select {
		case <-p.exited:
			p.t.Fatalf("%s exited: %v\n%s", p.name, p.cmd.ProcessState, p.log.tail(40))
		case <-time.After(50 * time.Millisecond):
		}
	}
	p.t.Fatalf("%s not ready after %s (last /readyz: %s)", p.name, limit, last)
	return 0
}

// readyz returns /readyz's status and body (0 when it cannot be reached).
func (p *serveProc) readyz() (int, string) {
	res, err := probeClient.Get(p.url + "/readyz")
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(res.Body)
	return res.StatusCode, strings.TrimSpace(b.String())
}

var probeClient = &http.Client{Timeout: 5 * time.Second}

// kill sends SIGKILL: no shutdown, no flush, nothing.
func (p *serveProc) kill() {
	p.t.Helper()
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
}

// stop sends SIGTERM and waits for a clean exit.
func (p *serveProc) stop() {
	p.t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(20 * time.Second):
		p.cmd.Process.Kill()
		<-p.exited
		p.t.Fatalf("%s did not stop within 20s of SIGTERM:\n%s", p.name, p.log.tail(40))
	}
	if !p.cmd.ProcessState.Success() {
		p.t.Errorf("%s exited with %v after SIGTERM:\n%s", p.name, p.cmd.ProcessState, p.log.tail(40))
	}
}

// natsNode is a nats-server with JetStream run inside the test process,
// which a test stops and starts again on the same directory and ports.
type natsNode struct {
	t    *testing.T
	opts jetstream.EmbeddedOptions
	srv  *jetstream.Embedded
	url  string // nats://127.0.0.1:PORT, the same across restarts
}

// startNATS starts a node; opts.Listen may have port 0 (chosen once, then
// kept for restarts).
func startNATS(t *testing.T, opts jetstream.EmbeddedOptions) *natsNode {
	t.Helper()
	n := &natsNode{t: t, opts: opts}
	n.start()
	t.Cleanup(n.stop)
	return n
}

func (n *natsNode) start() {
	n.t.Helper()
	if n.opts.StartTimeout == 0 {
		n.opts.StartTimeout = 20 * time.Second
	}
	var err error
	// A port just released may linger briefly; retry for a few seconds.
	for deadline := time.Now().Add(10 * time.Second); ; {
		n.srv, err = jetstream.StartEmbedded(n.opts)
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		n.t.Fatalf("start nats-server %s: %v", n.opts.Name, err)
	}
	n.url = n.srv.ClientURL()
	n.opts.Listen = strings.TrimPrefix(n.url, "nats://")
}

func (n *natsNode) stop() {
	if n.srv != nil {
		n.srv.Shutdown()
		n.srv = nil
	}
}

// freeLoopbackAddr returns a loopback address nobody listens on, with a
// port outside the kernel's ephemeral range (testnet.FreeAddr).
func freeLoopbackAddr(t *testing.T) string { return testnet.FreeAddr(t) }

// readStream returns every event of the stream on the NATS server at url
// (replicas as the stream was created with).
func readStream(t *testing.T, url string, replicas int) []events.Event {
	t.Helper()
	nc, err := jetstream.Connect(url, "fault-test-reader")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	return replayAll(t, nc, replicas)
}

// readDataStream returns every event stored in a stopped server's data
// directory, by running its embedded NATS in the test process.
func readDataStream(t *testing.T, data string) []events.Event {
	t.Helper()
	srv, err := jetstream.StartEmbedded(jetstream.EmbeddedOptions{Dir: filepath.Join(data, "nats"), StartTimeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("open %s: %v", data, err)
	}
	defer srv.Shutdown()
	nc, err := srv.Connect("fault-test-reader")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	return replayAll(t, nc, 1)
}

func replayAll(t *testing.T, nc *nats.Conn, replicas int) []events.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var st *jetstream.Store
	var err error
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		st, err = jetstream.Open(ctx, nc, jetstream.Config{Replicas: replicas})
		if err == nil || !errors.Is(err, events.ErrUnavailable) || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("open the event store: %v", err)
	}
	var all []events.Event
	if err := st.Replay(ctx, 1, func(ev events.Event) error { all = append(all, ev); return nil }); err != nil {
		t.Fatalf("replay: %v", err)
	}
	return all
}

// metrics scrapes GET /metrics and returns each sample by its name and
// labels as written ("crossrank_sse_clients", `x_total{outcome="ok"}`).
func (p *serveProc) metrics() (map[string]float64, error) {
	res, err := probeClient.Get(p.url + "/metrics")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: %s", res.Status)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(res.Body); err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, line := range strings.Split(b.String(), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			return nil, fmt.Errorf("malformed sample %q", line)
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			return nil, fmt.Errorf("malformed sample %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out, nil
}

// caughtUp reports whether the server's read models have applied the
// whole stream, as its /metrics says.
func (p *serveProc) caughtUp() (applied, last uint64, ok bool) {
	m, err := p.metrics()
	if err != nil {
		return 0, 0, false
	}
	applied, last = uint64(m["crossrank_projection_checkpoint"]), uint64(m["crossrank_stream_last_sequence"])
	return applied, last, m["crossrank_event_store_up"] == 1 && applied == last && m["crossrank_projection_lag_events"] == 0
}

// stopAtEnd stops the server so that its read models on disk hold the
// whole stream: a request a stopped client abandoned may still append while
// the server shuts down, after its projection has stopped. So it stops, starts
// again with no clients, waits until /metrics says the read models reached
// the end of the stream, and stops again.
func (p *serveProc) stopAtEnd() {
	p.t.Helper()
	p.stop()
	p.restart()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, _, ok := p.caughtUp(); ok {
			break
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: read models did not reach the end of the stream within 30s", p.name)
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.stop()
}
