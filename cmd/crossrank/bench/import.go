package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/events"
)

// importEntries and importEvidence size the generated ranking file: the
// issue's 1,000 entries with 100 evidence items each.
const importEntries, importEvidence = 1000, 100

type importResult struct {
	proposals, events int
	bytes             int
	rate, raw         float64 // proposals opened per second; the same events' worth by RawPublish
}

// importFile generates a ranking file of n entries with ev evidence items
// each, four scores citing them, for a new ranking: compact JSON, as a
// tool would write it.
func importFile(n, ev int) ([]byte, error) {
	text := func(s string) events.Text { return events.Text{Zh: s, En: s} }
	m := events.Methodology{Title: text("Import bench"), Description: text("Generated"),
		Categories: []events.Category{{Slug: "c", Name: text("C"), Description: text("C")}},
		Quorum:     events.QuorumPolicy{MinApprovals: 2, RequireEvidenceVerified: true}}
	for i := range 4 {
		m.Criteria = append(m.Criteria, events.Criterion{Slug: fmt.Sprintf("k%d", i), Name: text("K"), Description: text("K"), Weight: 25})
	}
	f := rankfile.File{Format: rankfile.Format, Slug: "import-bench", Methodology: m}
	for i := range n {
		e := rankfile.Entry{Slug: fmt.Sprintf("entry-%05d", i), Name: text(fmt.Sprintf("Entry %d", i)), Category: "c"}
		for j := range ev {
			e.Evidence = append(e.Evidence, rankfile.Evidence{Key: fmt.Sprintf("e%d", j), Claim: domain.TextField{En: "c"}, SourceName: "s",
				Excerpt: fmt.Sprintf("x%d", j), ObservedOn: "2026-01-01"})
		}
		for c := range 4 {
			var cite []string
			for j := c; j < ev; j += 4 {
				cite = append(cite, fmt.Sprintf("e%d", j))
			}
			e.Scores = append(e.Scores, rankfile.Score{Criterion: fmt.Sprintf("k%d", c), Value: (i + c) % 11, Rationale: domain.TextField{En: "r"}, Evidence: cite})
		}
		f.Entries = append(f.Entries, e)
	}
	return json.Marshal(f)
}

// measureImport imports a generated file (decode, check, one proposal per
// entry with its evidence and scores, submit) into a fresh store through
// the handler, then RawPublishes the very events it appended on another
// fresh store, one at a time as the import appends them.
func measureImport(ctx context.Context, o *options, run int) (importResult, error) {
	var res importResult
	n := importEntries
	if o.quick {
		n = importEntries / 10
	}
	raw, err := importFile(n, importEvidence)
	if err != nil {
		return res, err
	}
	res.bytes = len(raw)
	p, err := openPair(ctx, o, "import", run)
	if err != nil {
		return res, err
	}
	defer p.close()
	rec := &recorder{Store: p.desk.events}
	h := handler.New(rec, nil)
	editor := domain.Actor{Name: "importer", Roles: []string{domain.RoleEditor}, Via: events.Via{Method: events.ViaCLI}}
	start := time.Now()
	f, err := rankfile.Decode(bytes.NewReader(raw))
	if err != nil {
		return res, err
	}
	rep, err := rankfile.Import(ctx, h, f, editor)
	if err != nil {
		return res, err
	}
	took := time.Since(start)
	evs := rec.take()
	rawTook, err := rawPublish(ctx, p.raw, evs, 1)
	if err != nil {
		return res, err
	}
	res.proposals, res.events = len(rep.Proposals)+1, len(evs)
	res.rate, res.raw = float64(res.proposals)/took.Seconds(), float64(res.proposals)/rawTook.Seconds()
	o.logf("  %d proposals (%d events, file %d KiB) in %v; RawPublish of the same events %v",
		res.proposals, res.events, res.bytes>>10, took.Round(time.Millisecond), rawTook.Round(time.Millisecond))
	return res, nil
}
