package bench

import (
	"fmt"
	"slices"
	"time"
)

func perSecond(n int, d time.Duration) float64 { return float64(n) / d.Seconds() }

// scaleRows adds the scale part's rows to t: each figure next to the raw
// engine, or /healthz, in the same run.
func (r *report) scaleRows(t *table) {
	if len(r.scale) == 0 {
		return
	}
	s, o := r.scale[0], r.o
	sz := fmt.Sprintf("%d entries × %d criteria × %d evidence items", s.size.Entries, s.size.Criteria, s.size.Evidence)
	col := func(f func(scaleResult) float64) series { return collect(r.scale, f) }

	ratio := col(func(x scaleResult) float64 { return x.imp.raw.Seconds() / x.imp.took.Seconds() })
	t.add(fmt.Sprintf("scale — import through the API (POST /api/v1/imports, then confirm): proposals opened/s, from the confirmation to the job's end (%s, %d KiB file, %d events)",
		sz, s.fileBytes>>10, s.imp.events),
		col(func(x scaleResult) float64 { return perSecond(x.imp.proposals, x.imp.took) }).show(fmtRate),
		"RawPublish of the same events, sequential, as proposals/s: "+col(func(x scaleResult) float64 { return perSecond(x.imp.proposals, x.imp.raw) }).show(fmtRate),
		ratio.show(fmtRatio), "≥ 0.5 of raw", verdict(ratio.median() >= 0.5))
	t.add("scale — the dry run of that file through the API (upload to checked: decode, every entry checked by the domain, nothing stored)",
		col(func(x scaleResult) float64 { return millis(x.imp.dryRun) }).show(fmtMs), "—", "", "—", "")

	ratio = col(func(x scaleResult) float64 { return x.review.raw.Seconds() / x.review.took.Seconds() })
	t.add(fmt.Sprintf("scale — batch review through the API: votes/s (POST /api/v1/votes, %d votes a call, one call at a time, answered when the read models show them; 2 reviewers × %d proposals, every evidence item verified; %d events)",
		reviewBatch, s.review.votes/2, s.review.events),
		col(func(x scaleResult) float64 { return perSecond(x.review.votes, x.review.took) }).show(fmtRate),
		fmt.Sprintf("RawPublish of the same events, %d at once (as a batch runs its votes), as votes/s: ", rawReviewers)+
			col(func(x scaleResult) float64 { return perSecond(x.review.votes, x.review.raw) }).show(fmtRate),
		ratio.show(fmtRatio), "≥ 0.5 of raw", verdict(ratio.median() >= 0.5))

	edition := fmt.Sprintf("scale — first edition of all %d entries through the API (preview of all, then publish, answered when stored): wall time (%d proposals, %d changes",
		s.size.Entries, s.pub.proposals, s.pub.changes)
	if s.pub.refused != "" {
		t.add(edition+")", "refused: "+s.pub.refused+" (preview "+col(func(x scaleResult) float64 { return millis(x.pub.preview) }).show(fmtMs)+")",
			"—", "", "≥ 0.3 of raw", verdict(false))
	} else {
		ratio = col(func(x scaleResult) float64 { return x.pub.raw.Seconds() / x.pub.took.Seconds() })
		t.add(edition+fmt.Sprintf(", %d events, %d KiB)", s.pub.events, s.pub.bytes>>10),
			col(func(x scaleResult) float64 { return millis(x.pub.took) }).show(fmtMs)+" (preview "+col(func(x scaleResult) float64 { return millis(x.pub.preview) }).show(fmtMs)+")",
			"RawPublish of the same events, sequential: "+col(func(x scaleResult) float64 { return millis(x.pub.raw) }).show(fmtMs),
			ratio.show(fmtRatio), "≥ 0.3 of raw", verdict(ratio.median() >= 0.3))
		t.add("scale — that edition until the read models show it (from the preview)",
			col(func(x scaleResult) float64 { return millis(x.pub.settled) }).show(fmtMs), "—", "", "—", "")
	}

	how := "in this process (no crossrank binary)"
	if s.child {
		how = "`crossrank rebuild`, child process"
	}
	ratio = col(func(x scaleResult) float64 { return x.rebuild.rate / x.rebuild.raw })
	t.add(fmt.Sprintf("scale — rebuild of the resulting stream (%d events) into all read models, events/s (%s)", s.rebuilt, how),
		col(func(x scaleResult) float64 { return x.rebuild.rate }).show(fmtRate),
		"RawReplay (ordered consumer, no decoding): "+col(func(x scaleResult) float64 { return x.rebuild.raw }).show(fmtRate),
		ratio.show(fmtRatio), "≥ 0.3 of raw", verdict(ratio.median() >= 0.3))
	if s.child {
		t.add("scale — peak memory of that rebuild / of `crossrank verify` after it (each child's VmHWM, embedded nats-server included)",
			col(func(x scaleResult) float64 { return x.rebuild.hwm }).show(fmtMiB)+" / "+col(func(x scaleResult) float64 { return x.verifyHWM }).show(fmtMiB),
			"—", "", "—", "")
	}

	var names []string
	for _, p := range s.pages {
		if !slices.Contains(names, p.name) {
			names = append(names, p.name)
		}
	}
	for _, name := range names {
		var p pageLoad
		var rps, p99, ref, refRPS, times series
		for _, x := range r.scale {
			for _, l := range x.pages {
				if l.name == name {
					p = l
					rps, p99 = append(rps, l.res.rps), append(p99, millis(l.res.p99))
					ref, refRPS = append(ref, millis(l.ref.p99)), append(refRPS, l.ref.rps)
					times = append(times, float64(l.res.p99)/float64(max(l.ref.p99, 1)))
				}
			}
		}
		late := ""
		if p.res.timeouts > 0 {
			late = fmt.Sprintf("; %d requests over %v", p.res.timeouts, httpTimeout)
		}
		if p.res.refused > 0 {
			late += fmt.Sprintf("; %d answered other than 200", p.res.refused)
		}
		t.add(fmt.Sprintf("scale — %s at %d clients (closed loop), every proposal %s (%d KiB body, %d KiB gzipped): req/s, p99", name, o.clients, p.state, p.res.bytes>>10, p.res.sent>>10),
			rps.show(fmtRate)+" req/s, p99 "+p99.show(fmtMs)+late,
			"/healthz just before, same server: "+refRPS.show(fmtRate)+" req/s, p99 "+ref.show(fmtMs),
			times.show(fmtTimes)+" p99", "p99 ≤ 1.5× /healthz's", verdict(rps.median() > 0 && times.median() <= 1.5))
		if p.name == publicPages[0].name {
			gz := float64(p.res.sent)
			t.add("scale — public ranking page 1 as sent gzipped (Accept-Encoding: gzip)", fmt.Sprintf("%.1f KB (%d KiB uncompressed)", gz/1000, p.res.bytes>>10),
				"—", "", "≤ 100 KB", verdict(gz <= 100_000))
		}
	}

	if s.pub.refused != "" {
		t.add("scale — public ranking page 1 (load, and size gzipped)", "not measured: no edition was published", "—", "", "≤ 1.5× /healthz's p99; ≤ 100 KB", verdict(false))
	}
	hwm := col(func(x scaleResult) float64 { return x.hwm })
	t.add(fmt.Sprintf("scale — peak memory through import, review, publishing and the page loads: VmHWM of this process, where the server runs (server.New), with its embedded nats-server, the load clients and the raw reference's server (peak reached during %s)", s.hwmStep),
		hwm.show(fmtMiB), "—", "", "< 512 MiB", verdict(hwm.median() < 512))
}
