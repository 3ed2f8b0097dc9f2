package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/server"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
	"github.com/crossrank/crossrank/web/auth"
)

// The desk part of the scale bench (issue 42, "Measure it"): does a page
// cost what it shows, or what the ranking holds? The same ranking shape is
// written at deskSizes[0] and deskSizes[1] entries (history.LargeRanking:
// two criteria, a fifth of the proposals left in review, the rest
// cross-validated by two reviewers), the server is built by server.New as
// serve builds it, and each page is loaded by deskClients signed-in
// clients (bearer tokens), the public pages by publicClients. For each
// page it reports the process's CPU time per request at both sizes (the
// aim: the large costs at most twice the small) and its p99 against
// /healthz's at the same concurrency; and the process's resident memory
// before the loads, at their peak, and a minute after they end.
//
// The clients run in this process too, so their CPU is in the figure at
// both sizes; it follows the bytes a page sends, which is the page's own
// cost anyway.

// deskSizes are the two rankings compared; --quick makes the large one a
// tenth.
var deskSizes = [2]int{100, 10_000}

const (
	deskClients   = 20  // signed-in clients on each desk page
	publicClients = 100 // readers on each public page
)

// deskPage is one page of the desk part: path is relative to the ranking
// ({slug}, {entry} and {proposal} are filled in), role whose token it
// carries ("" for a reader).
type deskPage struct{ name, role, path string }

// Before the edition: the queues at their fullest. After it: the edition
// and what readers open.
var (
	deskPagesBefore = []deskPage{
		{"/desk (editor, author of every proposal)", "editor", "/desk"},
		{"/desk (reviewer who voted on nothing)", "reviewer", "/desk"},
		{"/desk (reviewer who approved every ready proposal)", "voter", "/desk"},
		{"/desk (publisher)", "publisher", "/desk"},
		{"/desk/review (reviewer)", "reviewer", "/desk/review"},
		{"/desk/publish (every ready proposal)", "publisher", "/desk/publish"},
		{"/desk/search?q=中 (a CJK query matching every entry)", "editor", "/desk/search?q=" + url.QueryEscape("中")},
		{"/desk/search?q=Entry e00042 (a Latin query)", "editor", "/desk/search?q=" + url.QueryEscape("Entry e00042")},
		{"/desk/proposals/{id} (a proposal in review)", "editor", "/desk/proposals/{proposal}"},
		{"/desk/inbox (editor)", "editor", "/desk/inbox"},
	}
	deskPagesAfter = []deskPage{
		{"/r/{slug}/editions/1 (the edition page, desk client)", "publisher", "/r/{slug}/editions/1"},
		{"/r/{slug} (public ranking, page 1)", "", "/r/{slug}"},
		{"/r/{slug}?page={last} (public ranking, its last page)", "", "/r/{slug}?page={lastpage}"},
		{"/r/{slug}/e/{entry} (public entry page)", "", "/r/{slug}/e/{entry}"},
		{"/r/{slug}/editions/1 (the edition page, readers)", "", "/r/{slug}/editions/1"},
	}
)

// deskPageLoad is one page at one size.
type deskPageLoad struct {
	page     deskPage
	res      httpResult
	ref      httpResult // /healthz at the same concurrency, same server and state
	cpuPerRq float64    // ms of this process's CPU per request answered
	requests int64
}

// deskSize is the desk part at one size.
type deskSize struct {
	entries  int
	events   uint64
	loads    []deskPageLoad
	publish  time.Duration // preview + publish of every ready proposal, answered
	ready    int           // proposals in that edition
	landing  int           // status of the edition page asked for at once after the publish answered
	captures int           // captures recorded from the preview until the publish answered
	refused  string        // the publish's answer when it was refused (the first try is the only one)
	rssBase  float64       // MiB before the loads (after a forced collection)
	rssPeak  float64       // MiB: VmHWM over the loads
	rssAfter float64       // MiB: a minute after the last load ended
	heap     float64       // MiB: Go heap in use a minute after
}

type deskScaleResult struct{ sizes []deskSize }

// measureDeskScale runs the desk part once at both sizes.
func measureDeskScale(ctx context.Context, o *options, run int) (deskScaleResult, error) {
	var res deskScaleResult
	sizes := deskSizes
	if o.quick {
		sizes[1] /= 10
	}
	for _, n := range sizes {
		o.logf("  desk at %d entries", n)
		ds, err := measureDeskSize(ctx, o, run, n)
		if err != nil {
			return res, fmt.Errorf("%d entries: %w", n, err)
		}
		res.sizes = append(res.sizes, ds)
	}
	return res, nil
}

func measureDeskSize(ctx context.Context, o *options, run, n int) (deskSize, error) {
	res := deskSize{entries: n}
	dir := filepath.Join(o.scratch, fmt.Sprintf("desk-%d-%d", n, run))
	defer os.RemoveAll(dir)
	b, err := openDataStore(ctx, dir, true)
	if err != nil {
		return res, err
	}
	defer b.close()
	seed := o.seed + int64(n)
	slug, ids, err := history.LargeRanking(ctx, b.events, history.ReadyEdition{Entries: n, Criteria: 2, Seed: seed, InReview: n / 5})
	if err != nil {
		return res, err
	}
	prefix := fmt.Sprintf("l%x", uint32(seed))
	users := map[string]string{"editor": prefix + "-editor", "voter": prefix + "-rev1", "reviewer": "desk-reviewer", "publisher": "desk-publisher"}
	if _, err := projections.Rebuild(ctx, b.events, b.readPath()); err != nil {
		return res, err
	}
	read, err := projections.Open(b.readPath())
	if err != nil {
		return res, err
	}
	defer read.Close()
	srv, err := server.New(server.Config{Events: b.events, Read: read, Addr: "127.0.0.1:0",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), SessionKeys: [][]byte{auth.RandomSessionKey()}})
	if err != nil {
		return res, err
	}
	fctx, stopFollow := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = srv.Commands.Follow(fctx, b.events) })
	wg.Go(func() { srv.Background(fctx) }) // as serve runs it: warming, memory returned
	defer func() { stopFollow(); wg.Wait() }()
	for role, name := range map[string]string{"reviewer": domain.RoleReviewer, "publisher": domain.RolePublisher} {
		if _, err := srv.Commands.RegisterUser(ctx, domain.System(), domain.RegisterUser{CommandID: events.NewID(time.Now()),
			Username: users[role], DisplayName: users[role], PasswordHash: "$argon2id$v=19$m=65536,t=3,p=2$YmVuY2g$aGFzaA",
			Roles: []string{name}}); err != nil {
			return res, err
		}
	}
	api, err := startAPI(ctx, srv, read, b, []string{users["editor"], users["voter"], users["reviewer"], users["publisher"]})
	if err != nil {
		return res, err
	}
	defer api.stop()
	fill := func(p string) string {
		r := strings.NewReplacer("{slug}", slug, "{entry}", "e00001", "{proposal}", ids[len(ids)-1],
			"{lastpage}", strconv.Itoa((n-n/5+99)/100))
		return r.Replace(p)
	}
	if res.events, err = b.events.LastSequence(ctx); err != nil {
		return res, err
	}

	debug.FreeOSMemory()
	res.rssBase = float64(procStatus("VmRSS")) / 1024
	o.logf("   before the loads: %s", memoryNow())
	if o.profile != "" {
		if err := writeHeapProfile(filepath.Join(o.profile, fmt.Sprintf("desk-scale-heap-%d-%d-before.pprof", n, run))); err != nil {
			return res, err
		}
	}
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		o.logf("  cannot reset the peak memory (%v)", err)
	}
	load := func(pages []deskPage) error {
		refs := map[int]httpResult{}
		for _, pg := range pages {
			clients := deskClients
			if pg.role == "" {
				clients = publicClients
			}
			if _, ok := refs[clients]; !ok {
				ref, _, _, err := deskLoad(ctx, o, api.url+"/healthz", "", clients)
				if err != nil {
					return err
				}
				refs[clients] = ref
			}
			token := ""
			if pg.role != "" {
				token = api.tokens[users[pg.role]]
			}
			r, cpu, total, err := deskLoad(ctx, o, api.url+fill(pg.path), token, clients)
			if err != nil {
				return fmt.Errorf("%s: %w", pg.name, err)
			}
			l := deskPageLoad{page: pg, res: r, ref: refs[clients], requests: total, cpuPerRq: millis(cpu) / float64(max(total, 1))}
			o.logf("   %s: %d clients, %.0f req/s, p99 %v (/healthz %v), %.2f CPU-ms a request, %d KiB (%d KiB gzipped); %s", pg.name, clients,
				r.rps, r.p99.Round(time.Microsecond), l.ref.p99.Round(time.Microsecond), l.cpuPerRq, r.bytes>>10, r.sent>>10, memoryNow())
			res.loads = append(res.loads, l)
		}
		return nil
	}
	if err := load(deskPagesBefore); err != nil {
		return res, err
	}

	// The edition of every ready proposal, as a publisher publishes it
	// through the API, then the page its answer leads to, asked for at
	// once: it must not be a 404 while the read models catch up.
	//
	// Beside it the capture worker is busy: captures of the very proposals
	// the edition contains are recorded from the preview until the publish
	// answers, as the worker records them after each fetch. Before issue
	// 42 item 3 the preview's hash pinned the stream's position and such a
	// capture refused the publish (409 after 29.7 s at 10,001 proposals).
	stopCaptures := make(chan struct{})
	var captured int
	var captureErr error
	var cwg sync.WaitGroup
	cwg.Go(func() { captured, captureErr = busyCaptures(ctx, srv.Commands, ids, stopCaptures) })
	start := time.Now()
	var pv struct {
		Proposals   []string `json:"proposals"`
		PreviewHash string   `json:"preview_hash"`
	}
	base := "/api/v1/rankings/" + slug + "/editions"
	if err := api.do(ctx, http.MethodPost, users["publisher"], base+"/preview", "application/json", []byte("{}"), &pv); err != nil {
		return res, err
	}
	body, _ := json.Marshal(map[string]any{"proposals": pv.Proposals, "preview_hash": pv.PreviewHash})
	// Without ?nowait=1: answered as a publisher's client is, once the
	// read models show the edition (or the wait's bound passed).
	err = api.do(ctx, http.MethodPost, users["publisher"], base, "application/json", body, nil)
	close(stopCaptures)
	cwg.Wait()
	if he := (*httpError)(nil); errors.As(err, &he) && he.status/100 == 4 {
		// Refused: the finding this row exists for. The edition is
		// published again without the race, so the pages after it load.
		res.refused = he.short()
		o.logf("   edition 1 refused beside %d captures: %s", captured, res.refused)
		err = api.do(ctx, http.MethodPost, users["publisher"], base+"/preview", "application/json", []byte("{}"), &pv)
		if err == nil {
			body, _ = json.Marshal(map[string]any{"proposals": pv.Proposals, "preview_hash": pv.PreviewHash})
			err = api.do(ctx, http.MethodPost, users["publisher"], base, "application/json", body, nil)
		}
	}
	if err != nil {
		return res, fmt.Errorf("publish: %w", err)
	}
	if captureErr != nil {
		return res, fmt.Errorf("captures beside the publish: %w", captureErr)
	}
	res.publish, res.ready, res.captures = time.Since(start), len(pv.Proposals), captured
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, api.url+fill("/r/{slug}/editions/1"), nil)
	if resp, err := api.client.Do(req); err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		res.landing = resp.StatusCode
	}
	o.logf("   edition 1 of %d proposals published in %v beside %d captures of its proposals; its page at once: %d; %s",
		res.ready, res.publish.Round(time.Millisecond), res.captures, res.landing, memoryNow())
	last, err := b.events.LastSequence(ctx)
	if err == nil {
		err = waitRead(ctx, read, last, 5*time.Minute)
	}
	if err != nil {
		return res, err
	}
	if err := load(deskPagesAfter); err != nil {
		return res, err
	}
	res.rssPeak = float64(procStatus("VmHWM")) / 1024

	// Memory comes back: a minute after the last load, with nothing
	// forcing a collection, as a server left alone.
	wait := time.Minute
	if o.quick {
		wait = 20 * time.Second
	}
	o.logf("   peak %.0f MiB (before the loads %.0f MiB); waiting %v", res.rssPeak, res.rssBase, wait)
	time.Sleep(wait)
	res.rssAfter = float64(procStatus("VmRSS")) / 1024
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.heap = float64(ms.HeapInuse) / (1 << 20)
	o.logf("   %v after the loads: %s", wait, memoryNow())
	if o.profile != "" {
		if err := writeHeapProfile(filepath.Join(o.profile, fmt.Sprintf("desk-scale-heap-%d-%d.pprof", n, run))); err != nil {
			return res, err
		}
	}
	return res, nil
}

// deskLoad loads url at clients clients (loadURL) and measures this
// process's CPU time over it, with the number of requests it served in
// that time (the warm-up included, as the CPU is).
func deskLoad(ctx context.Context, o *options, url, token string, clients int) (httpResult, time.Duration, int64, error) {
	oc := *o
	oc.clients = clients
	before := processCPU()
	r, err := loadURL(ctx, &oc, url, token)
	cpu := processCPU() - before
	settleCPU(o)
	return r, cpu, r.total, err
}

// processCPU is this process's CPU time, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// writeHeapProfile writes the heap's live objects (as of a collection
// forced now) to path, for --cpuprofile's directory.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	runtime.GC()
	return pprof.Lookup("heap").WriteTo(f, 0)
}

// memoryNow says where this process's memory is: resident now and at its
// peak, the Go heap's objects, its free pages not yet returned, and what
// lies outside Go's accounting (SQLite, the C allocator, the binary).
func memoryNow() string {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mib := func(b uint64) float64 { return float64(b) / (1 << 20) }
	rss := float64(procStatus("VmRSS")) / 1024
	return fmt.Sprintf("resident %.0f MiB (peak %.0f): Go heap objects %.0f, free not returned %.0f, outside Go %.0f",
		rss, float64(procStatus("VmHWM"))/1024, mib(ms.HeapAlloc), mib(ms.HeapIdle-ms.HeapReleased), rss-mib(ms.Sys-ms.HeapReleased))
}
