package bench

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/projections/history"
)

// options are the flags of `crossrank bench`.
type options struct {
	runs, events   int
	quick, genSync bool
	seed           int64
	work, scratch  string
	only           []string
	readers        int
	clients        int
	duration       time.Duration
	warmup         time.Duration // before each measured HTTP load
	scaleSize      rankfile.Size // the scale part's ranking
	rate           int           // fixed-rate HTTP load, requests/s
	cmdCycles      int           // sequential command cycles (10 commands each)
	ssePublishes   int           // editions published per SSE run
	profile        string
	exe            string
	out            io.Writer
	start          time.Time
}

func (o *options) logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[%6.1fs] "+format+"\n", append([]any{time.Since(o.start).Seconds()}, args...)...)
}

func (o *options) want(phase string) bool {
	return len(o.only) == 0 || slices.Contains(o.only, phase)
}

// profiled runs fn under the CPU profiler when --cpuprofile is set.
func (o *options) profiled(name string, fn func() error) error {
	if o.profile == "" {
		return fn()
	}
	f, err := os.Create(filepath.Join(o.profile, name+".pprof"))
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	defer pprof.StopCPUProfile()
	return fn()
}

// Command runs `crossrank bench ARGS`: it generates a synthetic history (and
// a large ranking for the web figures) deterministically from a seed,
// measures Crossrank next to the raw engine in the same run, and prints
// Markdown tables: median of --runs runs, with the range.
func Command(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("bench", flag.ExitOnError)
	o := &options{out: os.Stdout, start: time.Now(), warmup: time.Second}
	fs.IntVar(&o.runs, "runs", 3, "runs of every measurement; tables show the median and the range")
	fs.IntVar(&o.events, "events", 1_000_000, "size of the generated history (events)")
	fs.BoolVar(&o.quick, "quick", false, "100k events, 1 run, shorter loads, the scale part at a tenth of its entries: a couple of minutes (--runs, --events and --duration still apply)")
	fs.Int64Var(&o.seed, "seed", 1, "seed of the generated data")
	fs.StringVar(&o.work, "work", "", "directory for generated data, reused when seed and size match (default: a temporary directory, removed at the end)")
	fs.BoolVar(&o.genSync, "gen-sync", false, "generate with SyncAlways too (default: generation only runs without it; every measurement runs with it)")
	only := fs.String("only", "", "comma-separated phases to run: commands,import,rebuild,startup,sse,http,capture (default all), and scale (issue 26's 10,000 entries, with desk-scale; only when named) or desk-scale alone (issue 42: the desk's pages at 100 and 10,000 entries)")
	fs.IntVar(&o.readers, "readers", 1000, "connected SSE readers")
	fs.IntVar(&o.clients, "clients", 200, "concurrent HTTP clients")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "measured load per HTTP target and run")
	fs.IntVar(&o.rate, "rate", 2000, "requests/s of the fixed-rate (open-loop) HTTP load; 0 skips it")
	fs.StringVar(&o.profile, "cpuprofile", "", "write CPU profiles of the in-process phases to this directory")
	fs.Parse(args)
	o.cmdCycles, o.ssePublishes, o.scaleSize = 200, 5, scaleSize
	if o.quick {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["events"] {
			o.events = 100_000
		}
		if !set["runs"] {
			o.runs = 1
		}
		if !set["duration"] {
			o.duration = 3 * time.Second
		}
		o.cmdCycles, o.ssePublishes = 60, 3
		o.scaleSize.Entries /= 10
	}
	if *only != "" {
		o.only = strings.Split(*only, ",")
	}
	var err error
	if o.exe, err = os.Executable(); err != nil {
		return err
	}
	if o.work == "" {
		if o.work, err = os.MkdirTemp("", "crossrank-bench-"); err != nil {
			return err
		}
		defer os.RemoveAll(o.work)
	}
	o.scratch = filepath.Join(o.work, "scratch")
	os.RemoveAll(o.scratch)
	if err := os.MkdirAll(o.scratch, 0o750); err != nil {
		return err
	}
	defer os.RemoveAll(o.scratch)
	if o.profile != "" {
		if err := os.MkdirAll(o.profile, 0o750); err != nil {
			return err
		}
	}
	r := &report{o: o, http: map[string]*httpSeries{}, httpRate: map[string]*httpSeries{}}
	if err := runAll(ctx, o, r); err != nil {
		return err
	}
	r.print(o.out)
	return nil
}

// historyDataset is the dataset of the rebuild and start-up figures.
func historyDataset(ctx context.Context, o *options) (string, dataset, error) {
	return prepare(ctx, o, dataset{Kind: "history", Seed: o.seed, Size: o.events},
		func(ctx context.Context, b *dataStore) error {
			return history.Generate(ctx, b.events, o.events, o.seed)
		})
}

// bigRanking is the dataset of the page and API figures: 1,000 entries
// with 100 evidence items each.
var bigRanking = deskSpec{slug: "gpu1k", entries: 1000, evidence: 100, perEdition: 100}

func runAll(ctx context.Context, o *options, r *report) error {
	var histDir, webDir string
	var err error
	if o.want("rebuild") || o.want("startup") {
		if histDir, r.hist, err = historyDataset(ctx, o); err != nil {
			return err
		}
	}
	if o.want("http") {
		spec := bigRanking
		spec.seed = o.seed
		if webDir, r.web, err = prepare(ctx, o, dataset{Kind: "ranking1k", Seed: o.seed, Size: spec.entries},
			func(ctx context.Context, b *dataStore) error { return generateDesk(ctx, b.events, spec) }); err != nil {
			return err
		}
	}
	for run := 1; run <= o.runs; run++ {
		o.logf("run %d of %d", run, o.runs)
		if o.want("commands") {
			o.logf(" commands through the handler and RawPublish")
			var c commandsResult
			if err := o.profiled(fmt.Sprintf("commands-%d", run), func() (err error) { c, err = measureCommands(ctx, o, run); return err }); err != nil {
				return fmt.Errorf("commands: %w", err)
			}
			r.cmd = append(r.cmd, c)
		}
		if o.want("import") {
			o.logf(" ranking file import through the handler and RawPublish")
			var im importResult
			if err := o.profiled(fmt.Sprintf("import-%d", run), func() (err error) { im, err = measureImport(ctx, o, run); return err }); err != nil {
				return fmt.Errorf("import: %w", err)
			}
			r.imports = append(r.imports, im)
		}
		if slices.Contains(o.only, "scale") {
			o.logf(" scale: %d entries × %d criteria × %d evidence items through the served API", o.scaleSize.Entries, o.scaleSize.Criteria, o.scaleSize.Evidence)
			var sc scaleResult
			if err := o.profiled(fmt.Sprintf("scale-%d", run), func() (err error) { sc, err = measureScale(ctx, o, run); return err }); err != nil {
				return fmt.Errorf("scale: %w", err)
			}
			r.scale = append(r.scale, sc)
		}
		if slices.Contains(o.only, "scale") || slices.Contains(o.only, "desk-scale") {
			o.logf(" desk at %d and %d entries: %d signed-in clients a desk page, %d readers a public page", deskSizes[0], deskSizes[1], deskClients, publicClients)
			var ds deskScaleResult
			if err := o.profiled(fmt.Sprintf("desk-scale-%d", run), func() (err error) { ds, err = measureDeskScale(ctx, o, run); return err }); err != nil {
				return fmt.Errorf("desk scale: %w", err)
			}
			r.desk = append(r.desk, ds)
		}
		if o.want("rebuild") {
			o.logf(" rebuild of %d events (child process) and RawReplay", r.hist.Events)
			rb, err := measureRebuild(ctx, o, histDir, r.hist.Events)
			if err != nil {
				return fmt.Errorf("rebuild: %w", err)
			}
			r.rebuild = append(r.rebuild, rb)
		}
		if o.want("startup") {
			o.logf(" start-up of crossrank serve on %d events", r.hist.Events)
			st, err := measureStartup(ctx, o, histDir)
			if err != nil {
				return fmt.Errorf("start-up: %w", err)
			}
			r.startup = append(r.startup, st)
		}
		if o.want("sse") {
			o.logf(" publish → SSE at %d readers", o.readers)
			var lat []time.Duration
			if err := o.profiled(fmt.Sprintf("sse-%d", run), func() (err error) { lat, err = measureSSE(ctx, o, run); return err }); err != nil {
				return fmt.Errorf("sse: %w", err)
			}
			r.sseP50 = append(r.sseP50, millis(percentile(lat, 0.5)))
			r.sseP99 = append(r.sseP99, millis(percentile(lat, 0.99)))
		}
		if o.want("http") {
			if err := measurePublic(ctx, o, r, webDir, run); err != nil {
				return fmt.Errorf("http: %w", err)
			}
		}
		if o.want("capture") {
			o.logf(" %d captures of %d KiB pages from a local server, and plain GET + Put", capturePages, capturePageSize>>10)
			var c captureResult
			if err := o.profiled(fmt.Sprintf("capture-%d", run), func() (err error) { c, err = measureCapture(ctx, o, run); return err }); err != nil {
				return fmt.Errorf("capture: %w", err)
			}
			r.capture = append(r.capture, c)
		}
	}
	return nil
}

// publicTargets are the public reads under load, /healthz first as the
// reference.
var publicTargets = []struct{ name, path string }{
	{"/healthz (reference)", "/healthz"},
	{"public ranking page /r/{slug}", "/r/" + bigRanking.slug},
	{"GET /api/v1/rankings/{slug}", "/api/v1/rankings/" + bigRanking.slug},
}

func (r *report) addHTTP(m map[string]*httpSeries, name string, res httpResult) {
	s := m[name]
	if s == nil {
		s = &httpSeries{}
		m[name] = s
	}
	s.rps = append(s.rps, res.rps)
	s.p50 = append(s.p50, millis(res.p50))
	s.p99 = append(s.p99, millis(res.p99))
	if res.bytes > 0 {
		s.bytes, s.sent = res.bytes, res.sent
	}
	s.timeouts += res.timeouts
}

func measurePublic(ctx context.Context, o *options, r *report, dir string, run int) error {
	b, err := openDataStore(ctx, dir, true)
	if err != nil {
		return err
	}
	defer b.close()
	w, err := startWeb(ctx, b)
	if err != nil {
		return err
	}
	defer w.stop()
	for _, t := range publicTargets {
		o.logf(" %d clients on %s for %v", o.clients, t.path, o.duration)
		var res httpResult
		name := strings.NewReplacer("/", "_", "{", "", "}", "").Replace(t.path)
		if err := o.profiled(fmt.Sprintf("http%s-%d", name, run), func() (err error) { res, err = loadURL(ctx, o, w.url+t.path, ""); return err }); err != nil {
			return err
		}
		o.logf("  %.0f req/s, p50 %v, p99 %v, %d bytes (%d sent gzipped), %d timed out", res.rps, res.p50.Round(time.Microsecond), res.p99.Round(time.Microsecond), res.bytes, res.sent, res.timeouts)
		r.addHTTP(r.http, t.name, res)
	}
	if o.rate > 0 {
		for _, t := range publicTargets {
			o.logf(" %d req/s on %s for %v", o.rate, t.path, o.duration)
			res, err := loadURLRate(ctx, o, w.url+t.path, o.rate)
			if err != nil {
				return err
			}
			o.logf("  p50 %v, p99 %v, %d timed out", res.p50.Round(time.Microsecond), res.p99.Round(time.Microsecond), res.timeouts)
			r.addHTTP(r.httpRate, t.name, res)
		}
	}
	return nil
}
