package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/server"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/auth"
)

// The scale part (`crossrank bench --only scale`, issue 26) takes a
// ranking at real size — 10,000 entries × 10 criteria × 3 evidence items,
// generated from the seed (rankfile.Generate) — through the server
// `crossrank serve` builds (server.New), over its HTTP API, as a research
// team would: import (dry run, confirm), batch review by two reviewers,
// the first edition of all of it, then a rebuild of the stream it made.
// Between the steps its heaviest pages are loaded. It runs only when
// named: at full size it takes many minutes.

// scaleSize is the scale part's ranking; --quick tenths its entries.
var scaleSize = rankfile.Size{Entries: 10000, Criteria: 10, Evidence: 3}

// The ranking's slug and the users who import, review and publish it.
const (
	scaleSlug      = "scale"
	scaleEditor    = "scale-editor"
	scalePublisher = "scale-publisher"
)

var scaleReviewers = []string{"scale-reviewer1", "scale-reviewer2"}

type scaleResult struct {
	size      rankfile.Size
	fileBytes int
	imp       scaleImport
	review    scaleReview
	pub       scalePublish
	pages     []pageLoad
	rebuild   rebuildResult
	rebuilt   uint64  // events in the stream the rebuild replayed
	child     bool    // the rebuild ran as `crossrank rebuild`, a child process
	verifyHWM float64 // MiB: `crossrank verify`'s VmHWM (0: not run)
	hwm       float64 // MiB: this process's VmHWM through the server's steps
	hwmStep   string  // the step during which the peak was reached
}

// scaleRun is the server under measurement and its clients.
type scaleRun struct {
	o    *options
	p    *storePair
	srv  *server.Server
	read *projections.Store
	api  *apiClients
	res  *scaleResult
	hwm  int64
}

// measureScale runs the scale part once on fresh stores.
func measureScale(ctx context.Context, o *options, run int) (scaleResult, error) {
	res := scaleResult{size: o.scaleSize}
	res.size.Seed = uint64(o.seed)
	file, err := json.Marshal(rankfile.Generate(scaleSlug, res.size))
	if err != nil {
		return res, err
	}
	res.fileBytes = len(file)
	p, err := openPair(ctx, o, "scale", run)
	if err != nil {
		return res, err
	}
	defer p.close()
	// The peak memory counts from here: what earlier parts left behind is
	// handed back first.
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		o.logf("  cannot reset the peak memory (%v): it counts from the start of the bench", err)
	}
	s := &scaleRun{o: o, p: p, res: &res}
	stop, err := s.start(ctx)
	if err != nil {
		return res, err
	}
	steps := []struct {
		name string
		run  func(context.Context) error
	}{
		{"import", func(ctx context.Context) error { return s.importFile(ctx, file) }},
		{"pages in review", func(ctx context.Context) error { return s.loadPages(ctx, "in review", reviewPages) }},
		{"batch review", s.reviewAll},
		{"pages before publishing", func(ctx context.Context) error { return s.loadPages(ctx, "cross-validated", publishPages) }},
		{"first edition", s.publishAll},
		{"pages published", func(ctx context.Context) error {
			if res.pub.refused != "" {
				return s.loadPages(ctx, "cross-validated, the edition refused", publicPages[1:]) // no ranking page to load
			}
			return s.loadPages(ctx, "published", publicPages)
		}},
	}
	for _, st := range steps {
		o.logf("  scale: %s", st.name)
		if err := st.run(ctx); err != nil {
			stop()
			return res, fmt.Errorf("%s: %w", st.name, err)
		}
		s.mark(st.name)
	}
	stop()
	res.hwm = float64(s.hwm) / 1024
	if res.rebuilt, err = p.desk.events.LastSequence(ctx); err != nil {
		return res, err
	}
	p.desk.close()
	return res, s.rebuildAll(ctx)
}

// mark notes this process's peak memory after step.
func (s *scaleRun) mark(step string) {
	if kb := vmHWM("/proc/self/status"); kb > s.hwm {
		s.hwm, s.res.hwmStep = kb, step
	}
	s.o.logf("  peak memory so far %d MiB (reached during %s)", s.hwm>>10, s.res.hwmStep)
}

// start builds the server as serve does (server.New over the store and
// its read models), has the read models and the commands follow the
// stream, registers the users and issues each a token, and serves HTTP.
// It returns what stops it all.
func (s *scaleRun) start(ctx context.Context) (func(), error) {
	b := s.p.desk
	read, err := projections.Open(b.readPath())
	if err != nil {
		return nil, err
	}
	srv, err := server.New(server.Config{Events: b.events, Read: read, Addr: "127.0.0.1:0",
		Logger:      slog.New(slog.NewTextHandler(io.Discard, nil)),
		SessionKeys: [][]byte{auth.RandomSessionKey()}})
	if err != nil {
		read.Close()
		return nil, err
	}
	fctx, stopFollow := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = srv.Commands.Follow(fctx, b.events) })
	wg.Go(func() { srv.Background(fctx) }) // as serve runs it: warming, memory returned
	users := map[string]string{scaleEditor: domain.RoleEditor, scalePublisher: domain.RolePublisher}
	for _, r := range scaleReviewers {
		users[r] = domain.RoleReviewer
	}
	var names []string
	for name, role := range users {
		if _, err = srv.Commands.RegisterUser(ctx, domain.System(), domain.RegisterUser{CommandID: events.NewID(time.Now()),
			Username: name, DisplayName: name, PasswordHash: "$argon2id$v=19$m=65536,t=3,p=2$YmVuY2g$aGFzaA",
			Roles: []string{role}}); err != nil {
			break
		}
		names = append(names, name)
	}
	if err == nil {
		s.api, err = startAPI(ctx, srv, read, b, names)
	}
	if err != nil {
		stopFollow()
		wg.Wait()
		read.Close()
		return nil, err
	}
	s.srv, s.read = srv, read
	s.api.client.Transport = transport(s.o.clients)
	return func() {
		s.api.stop()
		stopFollow()
		wg.Wait()
		read.Close()
	}, nil
}

// caughtUp waits until the read models have applied the whole stream.
func (s *scaleRun) caughtUp(ctx context.Context) error {
	last, err := s.p.desk.events.LastSequence(ctx)
	if err != nil {
		return err
	}
	return waitRead(ctx, s.read, last, 10*time.Minute)
}

// rebuildAll rebuilds the read models of the stream the steps made, as
// `crossrank rebuild` in a child process next to RawReplay, and verifies
// it with `crossrank verify`; without the crossrank binary (the tests) it
// rebuilds in this process instead.
func (s *scaleRun) rebuildAll(ctx context.Context) error {
	dir, res := s.p.desk.dir, s.res
	if s.o.exe == "" {
		raw, err := rawReplay(ctx, dir, res.rebuilt)
		if err != nil {
			return err
		}
		b, err := openDataStore(ctx, dir, true)
		if err != nil {
			return err
		}
		defer b.close()
		st, err := projections.Rebuild(ctx, b.events, b.readPath())
		if err == nil && st.Events != res.rebuilt {
			err = fmt.Errorf("rebuilt %d events, want %d", st.Events, res.rebuilt)
		}
		res.rebuild = rebuildResult{rate: st.Rate(), raw: float64(res.rebuilt) / raw.Seconds()}
		return err
	}
	rb, err := measureRebuild(ctx, s.o, dir, res.rebuilt)
	if err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	res.rebuild, res.child = rb, true
	out, hwm, _, err := runChild(ctx, s.o, "verify", "--data", dir)
	if err != nil {
		return fmt.Errorf("crossrank verify: %w\n%s", err, out)
	}
	res.verifyHWM = hwm
	s.o.logf("  %s(VmHWM %.0f MiB)", out, hwm)
	return nil
}
