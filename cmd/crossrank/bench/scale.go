package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/events"
)

// The scale part (`crossrank bench --only scale`, issue 26) measures a
// ranking at real size: 10,000 entries × 10 criteria × 3 evidence items,
// generated from the seed (rankfile.Generate). It runs only when named:
// at full size it takes minutes.

// scaleSize is the scale part's ranking; --quick tenths its entries.
var scaleSize = rankfile.Size{Entries: 10000, Criteria: 10, Evidence: 3}

type scaleResult struct {
	entries, proposals, events, bytes int
	dryRun                            time.Duration // the whole-file check alone
	rate, raw                         float64       // proposals opened/s; the same events' worth by RawPublish
}

// measureScale imports the generated file as the desk's import page does
// (rankfile.Check, the dry run, then rankfile.ImportWith on confirming)
// into a fresh store through the handler, then RawPublishes the very
// events it appended on another fresh store, one at a time as the import
// appends them. The rate counts from the confirmation: decode, a fresh
// whole-file check and every command.
func measureScale(ctx context.Context, o *options, run int) (scaleResult, error) {
	size := scaleSize
	size.Seed = uint64(o.seed)
	if o.quick {
		size.Entries /= 10
	}
	res := scaleResult{entries: size.Entries}
	raw, err := json.Marshal(rankfile.Generate("scale", size))
	if err != nil {
		return res, err
	}
	res.bytes = len(raw)
	dir := filepath.Join(o.scratch, fmt.Sprintf("scale-%d", run))
	defer os.RemoveAll(dir)
	b, err := openDataStore(ctx, filepath.Join(dir, "desk"), true)
	if err != nil {
		return res, err
	}
	defer b.close()
	rs, err := openDataStore(ctx, filepath.Join(dir, "raw"), true)
	if err != nil {
		return res, err
	}
	defer rs.close()
	rec := &recorder{Store: b.events}
	h := domain.NewHandler(rec, nil)
	editor := domain.Actor{Name: "importer", Roles: []string{domain.RoleEditor}, Via: events.Via{Method: events.ViaSession}}

	start := time.Now()
	_, sum, err := rankfile.Check(ctx, h, rankfile.Upload{Data: raw}, editor, rankfile.Options{})
	if err != nil {
		return res, err
	}
	if len(sum.Problems) > 0 {
		return res, fmt.Errorf("the generated file has problems: %w", sum.Problems)
	}
	res.dryRun = time.Since(start)

	start = time.Now()
	f, err := rankfile.Decode(bytes.NewReader(raw))
	if err != nil {
		return res, err
	}
	rep, err := rankfile.ImportWith(ctx, h, f, editor, rankfile.Options{})
	if err != nil {
		return res, err
	}
	took := time.Since(start)
	evs := rec.take()
	rawTook, err := rawPublish(ctx, rs, evs, 1)
	if err != nil {
		return res, err
	}
	res.proposals, res.events = rep.Summary.Open, len(evs)
	res.rate, res.raw = float64(res.proposals)/took.Seconds(), float64(res.proposals)/rawTook.Seconds()
	o.logf("  dry run %v; %d proposals (%d events, file %d KiB) in %v; RawPublish of the same events %v",
		res.dryRun.Round(time.Millisecond), res.proposals, res.events, res.bytes>>10, took.Round(time.Millisecond), rawTook.Round(time.Millisecond))
	return res, nil
}

// scaleRows adds the scale part's rows to t.
func (r *report) scaleRows(t *table) {
	if len(r.scale) == 0 {
		return
	}
	s := r.scale[0]
	rate, raw := collect(r.scale, func(x scaleResult) float64 { return x.rate }), collect(r.scale, func(x scaleResult) float64 { return x.raw })
	ratio := collect(r.scale, func(x scaleResult) float64 { return x.rate / x.raw })
	dry := collect(r.scale, func(x scaleResult) float64 { return millis(x.dryRun) })
	t.add(fmt.Sprintf("scale — import: proposals opened/s (%d entries × %d criteria × %d evidence items, %d KiB, %d events; confirm after a dry run: decode, whole-file check, submit)",
		s.entries, scaleSize.Criteria, scaleSize.Evidence, s.bytes>>10, s.events),
		rate.show(fmtRate), "RawPublish of the same events, sequential, as proposals/s: "+raw.show(fmtRate), ratio.show(fmtRatio), "≥ 0.5 of raw", verdict(ratio.median() >= 0.5))
	t.add("scale — the dry run of that file (decode, every entry checked by the domain, nothing stored)", dry.show(fmtMs), "—", "", "—", "")
}
