package bench

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
)

// report collects every run and prints the tables.
type report struct {
	o         *options
	hist, web dataset
	cmd       []commandsResult
	imports   []importResult
	scale     []scaleResult
	desk      []deskScaleResult
	rebuild   []rebuildResult
	startup   []startupResult
	sseP50    series
	sseP99    series
	http      map[string]*httpSeries // closed loop, o.clients clients
	httpRate  map[string]*httpSeries // open loop, o.rate requests/s
	capture   []captureResult
}

type httpSeries struct {
	rps, p50, p99         series
	bytes, sent, timeouts int64
}

func collect[T any](xs []T, f func(T) float64) series {
	var s series
	for _, x := range xs {
		s = append(s, f(x))
	}
	return s
}

func (r *report) print(w io.Writer) {
	o := r.o
	fmt.Fprintf(w, "\n## crossrank bench — %s\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(w, "%s\n\n", machine())
	fmt.Fprintf(w, "Runs: %d (figures are the median, the range in brackets). Seed %d. ", o.runs, o.seed)
	fmt.Fprintf(w, "Every measurement runs on the embedded nats-server with SyncAlways (fsync before each ack)")
	if !r.hist.SyncGen || !r.web.SyncGen {
		fmt.Fprintf(w, "; the datasets were generated without it (generation only)")
	}
	fmt.Fprintf(w, ".\n\n")
	t := &table{head: []string{"what", "Crossrank", "raw reference, same run", "ratio", "aim", ""}}
	if len(r.cmd) > 0 {
		seq, par := collect(r.cmd, func(c commandsResult) float64 { return c.seq }), collect(r.cmd, func(c commandsResult) float64 { return c.par })
		rawSeq, rawPar := collect(r.cmd, func(c commandsResult) float64 { return c.rawSeq }), collect(r.cmd, func(c commandsResult) float64 { return c.rawPar })
		ratio := collect(r.cmd, func(c commandsResult) float64 { return c.seq / c.rawSeq })
		parRatio := collect(r.cmd, func(c commandsResult) float64 { return c.par / c.rawPar })
		rawScale := collect(r.cmd, func(c commandsResult) float64 { return c.rawPar / c.rawSeq })
		t.add("commands/s through the handler, one aggregate at a time", seq.show(fmtRate),
			"RawPublish, sequential: "+rawSeq.show(fmtRate), ratio.show(fmtRatio), "≥ 0.7 of raw", verdict(ratio.median() >= 0.7))
		t.add(fmt.Sprintf("commands/s through the handler, %d aggregates in parallel", parallelAggregates), par.show(fmtRate),
			fmt.Sprintf("RawPublish, %d at once: %s (%s sequential raw)", parallelAggregates, rawPar.show(fmtRate), rawScale.show(fmtTimes)),
			parRatio.show(fmtRatio), "≥ 0.9 of raw in parallel", verdict(parRatio.median() >= 0.9))
		apiRatio := collect(r.cmd, func(c commandsResult) float64 { return c.api / c.rawAPI })
		t.add(fmt.Sprintf("commands/s through the HTTP API, %d clients (bearer tokens, JSON, answered when stored: ?nowait=1)", parallelAggregates),
			collect(r.cmd, func(c commandsResult) float64 { return c.api }).show(fmtRate),
			fmt.Sprintf("RawPublish, %d at once: %s", parallelAggregates, collect(r.cmd, func(c commandsResult) float64 { return c.rawAPI }).show(fmtRate)),
			apiRatio.show(fmtRatio), "— (the web layer's cost)", "")
		fSeq := collect(r.cmd, func(c commandsResult) float64 { return c.seq / c.followedSeq })
		fPar := collect(r.cmd, func(c commandsResult) float64 { return c.par / c.followedPar })
		t.add("the same two, sequential / in parallel, against RawPublish on a stream that also feeds one follower, as the handler's does (no aim: where the gap is)",
			"—",
			fmt.Sprintf("RawPublish with a follower: %s sequential, %s at once", collect(r.cmd, func(c commandsResult) float64 { return c.followedSeq }).show(fmtRate), collect(r.cmd, func(c commandsResult) float64 { return c.followedPar }).show(fmtRate)),
			fSeq.show(fmtRatio)+" / "+fPar.show(fmtRatio), "—", "")
	}
	if len(r.imports) > 0 {
		im := r.imports[0]
		rate, raw := collect(r.imports, func(x importResult) float64 { return x.rate }), collect(r.imports, func(x importResult) float64 { return x.raw })
		ratio := collect(r.imports, func(x importResult) float64 { return x.rate / x.raw })
		t.add(fmt.Sprintf("ranking file import: proposals opened/s (`crossrank ranking import`: %d entries × %d evidence items, %d KiB, %d events; decode, whole-file check, submit)",
			im.proposals-1, importEvidence, im.bytes>>10, im.events),
			rate.show(fmtRate), "RawPublish of the same events, sequential, as proposals/s: "+raw.show(fmtRate), ratio.show(fmtRatio), "≥ 0.5 of raw", verdict(ratio.median() >= 0.5))
	}
	r.scaleRows(t)
	r.deskScaleRows(t)
	if len(r.rebuild) > 0 {
		rate, raw := collect(r.rebuild, func(x rebuildResult) float64 { return x.rate }), collect(r.rebuild, func(x rebuildResult) float64 { return x.raw })
		ratio := collect(r.rebuild, func(x rebuildResult) float64 { return x.rate / x.raw })
		hwm := collect(r.rebuild, func(x rebuildResult) float64 { return x.hwm })
		t.add(fmt.Sprintf("rebuild of %d events into all read models, events/s (`crossrank rebuild`, child process)", r.hist.Events),
			rate.show(fmtRate), "RawReplay (ordered consumer, no decoding): "+raw.show(fmtRate), ratio.show(fmtRatio), "≥ 0.3 of raw (reach for 0.5)", verdict(ratio.median() >= 0.3))
		t.add("peak memory during that rebuild: the child's VmHWM (/proc/<pid>/status, read every 10 ms), embedded nats-server included",
			hwm.show(fmtMiB), "—", "", "< 256 MiB", verdict(hwm.median() < 256))
	}
	if len(r.startup) > 0 {
		ready, serving := collect(r.startup, func(x startupResult) float64 { return millis(x.ready) }), collect(r.startup, func(x startupResult) float64 { return millis(x.serving) })
		t.add(fmt.Sprintf("start-up to ready, %d events, current checkpoint (exec of `crossrank serve --no-demo` → /readyz 200)", r.hist.Events),
			ready.show(fmtMs), "— (\"crossrank serving\" logged after "+serving.show(fmtMs)+")", "", "< 2 s", verdict(ready.median() < 2000))
	}
	if len(r.sseP99) > 0 {
		t.add(fmt.Sprintf("publish → SSE message at %d connected readers, p50 / p99 (from the start of the publish command)", o.readers),
			r.sseP50.show(fmtMs)+" / "+r.sseP99.show(fmtMs), "—", "", "p99 < 250 ms", verdict(r.sseP99.median() < 250))
	}
	if ref := r.http[publicTargets[0].name]; ref != nil {
		for _, target := range publicTargets[1:] {
			s := r.http[target.name]
			if s == nil {
				continue
			}
			late := ""
			if s.timeouts > 0 {
				late = fmt.Sprintf("; %d requests over %v", s.timeouts, httpTimeout)
			}
			// A closed loop's p99 follows its throughput (each client waits
			// for its answer before asking again), so its aim is a
			// throughput one: cached bytes should cost not much more than a
			// health check. Latency is judged in the open loop below.
			ratio := rpsRatio(s, ref)
			t.add(fmt.Sprintf("%s at %d clients (closed loop), %d entries / %d evidence items (%d KiB body, %d KiB gzipped): req/s, p99", target.name, o.clients,
				bigRanking.entries, bigRanking.entries*bigRanking.evidence, s.bytes>>10, s.sent>>10),
				s.rps.show(fmtRate)+" req/s, p99 "+s.p99.show(fmtMs)+late,
				"/healthz on the same server: "+ref.rps.show(fmtRate)+" req/s, p99 "+ref.p99.show(fmtMs), ratio.show(fmtRatio)+" of req/s",
				"≥ 0.5 of /healthz's req/s", verdict(ratio.median() >= 0.5))
		}
	}
	if ref := r.httpRate[publicTargets[0].name]; ref != nil {
		for _, target := range publicTargets[1:] {
			s := r.httpRate[target.name]
			if s == nil {
				continue
			}
			late := ""
			if s.timeouts > 0 {
				late = fmt.Sprintf("; %d requests over %v", s.timeouts, httpTimeout)
			}
			ratio := p99Ratio(s, ref)
			t.add(fmt.Sprintf("%s at a fixed %d req/s (open loop; latency from when each request was due): p50 / p99", target.name, o.rate),
				s.p50.show(fmtMs)+" / "+s.p99.show(fmtMs)+late,
				"/healthz at the same rate: "+ref.p50.show(fmtMs)+" / "+ref.p99.show(fmtMs), ratio.show(fmtTimes)+" p99",
				"p99 ≤ 1.2× /healthz's", verdict(ratio.median() <= 1.2))
		}
	}
	captureRows(t, r.capture)
	fmt.Fprint(w, t.String())
	var sets []string
	if r.hist.Events > 0 {
		sets = append(sets, fmt.Sprintf("history %d events (history.Generate, seed %d, %.0fs to generate)", r.hist.Events, r.hist.Seed, r.hist.GenSecond))
	}
	if r.web.Events > 0 {
		sets = append(sets, fmt.Sprintf("ranking %d events (%d entries × %d evidence items, %.0fs)", r.web.Events, bigRanking.entries, bigRanking.evidence, r.web.GenSecond))
	}
	if len(sets) > 0 {
		fmt.Fprintf(w, "\nDatasets: %s.\n", strings.Join(sets, "; "))
	}
	only := ""
	if len(o.only) > 0 {
		only = " --only " + strings.Join(o.only, ",")
	}
	fmt.Fprintf(w, "Command: `crossrank bench --runs %d --events %d --seed %d%s`%s\n", o.runs, o.events, o.seed, only, map[bool]string{true: " (--quick)"}[o.quick])
}

// machine describes the host: CPU, memory, kernel, Go and nats-server.
func machine() string {
	cpu, n := "unknown CPU", 0
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu, n = strings.TrimSpace(v), n+1
			}
		}
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "MemTotal:"); ok {
				var kb int64
				fmt.Sscan(strings.TrimSpace(v), &kb)
				mem = fmt.Sprintf(", %.0f GiB RAM", float64(kb)/(1<<20))
			}
		}
	}
	kernel := ""
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = ", Linux " + strings.TrimSpace(string(b))
	}
	return fmt.Sprintf("Machine: %s × %d (GOMAXPROCS %d)%s%s; %s; nats-server %s (embedded); SQLite via mattn/go-sqlite3.",
		cpu, n, runtime.GOMAXPROCS(0), mem, kernel, runtime.Version(), natsVersion())
}

// p99Ratio is each run's p99 of s over the reference's in the same run.
// rpsRatio is s's requests per second over ref's, run by run.
func rpsRatio(s, ref *httpSeries) series {
	var out series
	for i := range min(len(s.rps), len(ref.rps)) {
		if ref.rps[i] > 0 {
			out = append(out, s.rps[i]/ref.rps[i])
		}
	}
	return out
}

func p99Ratio(s, ref *httpSeries) series {
	var out series
	for i := range min(len(s.p99), len(ref.p99)) {
		if ref.p99[i] > 0 {
			out = append(out, s.p99[i]/ref.p99[i])
		}
	}
	return out
}
