package bench

import (
	"fmt"
	"net/http"
)

// deskScaleRows adds the desk part's rows to t: per page, CPU per request
// at the large size against the small one in the same run, and p99
// against /healthz's at the same concurrency; then the publish and
// memory.
func (r *report) deskScaleRows(t *table) {
	if len(r.desk) == 0 || len(r.desk[0].sizes) < 2 {
		return
	}
	small, large := r.desk[0].sizes[0].entries, r.desk[0].sizes[1].entries
	at := func(x deskScaleResult, i int, name string) (deskPageLoad, bool) {
		for _, l := range x.sizes[i].loads {
			if l.page.name == name {
				return l, true
			}
		}
		return deskPageLoad{}, false
	}
	for _, pages := range [][]deskPage{deskPagesBefore, deskPagesAfter} {
		for _, pg := range pages {
			var cpuS, cpuL, ratio, p99, ref, times series
			var last deskPageLoad
			for _, x := range r.desk {
				s, ok1 := at(x, 0, pg.name)
				l, ok2 := at(x, 1, pg.name)
				if !ok1 || !ok2 {
					continue
				}
				last = l
				cpuS, cpuL = append(cpuS, s.cpuPerRq), append(cpuL, l.cpuPerRq)
				ratio = append(ratio, l.cpuPerRq/max(s.cpuPerRq, 1e-9))
				p99, ref = append(p99, millis(l.res.p99)), append(ref, millis(l.ref.p99))
				times = append(times, float64(l.res.p99)/float64(max(l.ref.p99, 1)))
			}
			if len(ratio) == 0 {
				continue
			}
			clients, aim := deskClients, 3.0
			if pg.role == "" {
				clients, aim = publicClients, 1.5
			}
			late := ""
			if last.res.timeouts > 0 || last.res.refused > 0 {
				late = fmt.Sprintf("; %d over %v, %d answered other than 200", last.res.timeouts, httpTimeout, last.res.refused)
			}
			t.add(fmt.Sprintf("desk scale — %s: CPU-ms a request at %d entries (%d clients, %d KiB gzipped)", pg.name, large, clients, last.res.sent>>10),
				cpuL.show(fmtMs),
				fmt.Sprintf("the same page at %d entries, same run: %s", small, cpuS.show(fmtMs)),
				ratio.show(fmtTimes), "≤ 2× the small ranking's", verdict(ratio.median() <= 2))
			t.add(fmt.Sprintf("desk scale — %s at %d entries: p99 (%d clients, closed loop)%s", pg.name, large, clients, late),
				p99.show(fmtMs), "/healthz at the same concurrency, same server: "+ref.show(fmtMs),
				times.show(fmtTimes), fmt.Sprintf("≤ %.1f× /healthz's", aim), verdict(times.median() <= aim && last.res.timeouts == 0 && last.res.refused == 0))
		}
	}
	col := func(i int, f func(deskSize) float64) series {
		return collect(r.desk, func(x deskScaleResult) float64 { return f(x.sizes[i]) })
	}
	l := r.desk[0].sizes[1]
	landed := true
	for _, x := range r.desk {
		d := x.sizes[1]
		landed = landed && d.landing == http.StatusOK && d.refused == ""
	}
	first := "the first try succeeded"
	if l.refused != "" {
		first = "the first try was refused: " + l.refused
	}
	t.add(fmt.Sprintf("desk scale — first edition of %d ready proposals at %d entries through the API (preview, publish) with the capture worker recording its proposals' captures beside it, then its page asked for at once", l.ready, large),
		col(1, func(d deskSize) float64 { return millis(d.publish) }).show(fmtMs)+fmt.Sprintf("; %d captures recorded meanwhile; %s; the page answered %d", l.captures, first, l.landing),
		"—", "", "the first try succeeds; the page answers 200, never 404", verdict(landed))
	peak := col(1, func(d deskSize) float64 { return d.rssPeak })
	t.add(fmt.Sprintf("desk scale — peak resident memory over the loads at %d entries (VmHWM of this process: the server, its embedded nats-server and the load clients)", large),
		peak.show(fmtMiB), "before the loads: "+col(1, func(d deskSize) float64 { return d.rssBase }).show(fmtMiB), "", "< 512 MiB", verdict(peak.median() < 512))
	back := col(1, func(d deskSize) float64 { return d.rssAfter - d.rssBase })
	t.add(fmt.Sprintf("desk scale — resident memory a minute after the last load at %d entries, above its figure before the loads", large),
		back.show(fmtMiB), "resident then: "+col(1, func(d deskSize) float64 { return d.rssAfter }).show(fmtMiB)+", Go heap in use "+col(1, func(d deskSize) float64 { return d.heap }).show(fmtMiB),
		"", "≤ 64 MiB above", verdict(back.median() <= 64))
}
