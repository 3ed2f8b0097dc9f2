package bundle

import (
	"regexp"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// evidence reads evidence.jsonl: the evidence items the published values
// cite, and their captures, as their proposals' events stored them.
func (v *verifier) evidence() {
	m := v.rep.Manifest
	var last uint64
	items := 0
	v.scan(EvidenceFile, func(n int, line []byte) {
		e, err := decodeEvent(line)
		if err != nil {
			v.fail(CheckEvidence, "%s line %d: %v", EvidenceFile, n, err)
			return
		}
		if e.Sequence <= last || e.Sequence > m.Sequence {
			v.fail(CheckEvidence, "%s line %d: sequence %d out of order or after the edition (%d)", EvidenceFile, n, e.Sequence, m.Sequence)
		}
		last = e.Sequence
		switch d := e.Data.(type) {
		case *events.EvidenceAdded:
			v.added[e.Subject+"/"+d.EvidenceID] = true
			items++
		case *events.EvidenceCaptured:
			v.captured = append(v.captured, Capture{Proposal: e.Subject, Evidence: d.EvidenceID, SHA256: d.SHA256, URL: d.URL, FetchedAt: d.FetchedAt})
		default:
			v.fail(CheckEvidence, "%s line %d: a %s event has no place here", EvidenceFile, n, e.Type)
		}
	})
	v.pass(CheckEvidence, "%d evidence items, every one a published value cites", items)
}

// captures compares captures.jsonl with the captures the evidence
// events record.
func (v *verifier) captures() {
	n := 0
	v.scan(CapturesFile, func(i int, line []byte) {
		n = i
		var c Capture
		if err := decodeStrict(line, &c); err != nil {
			v.fail(CheckCaptures, "%s line %d: %v", CapturesFile, i, err)
			return
		}
		switch {
		case !sha256Hex.MatchString(c.SHA256):
			v.fail(CheckCaptures, "%s line %d: %q is not a hex SHA-256", CapturesFile, i, c.SHA256)
		case i > len(v.captured):
			v.fail(CheckCaptures, "%s line %d: capture %.12s… of evidence %s of proposal %s is recorded by no event in the bundle", CapturesFile, i, c.SHA256, c.Evidence, c.Proposal)
		case c != v.captured[i-1]:
			w := v.captured[i-1]
			v.fail(CheckCaptures, "%s line %d: capture %.12s… of evidence %s of proposal %s, but its event records %.12s… of evidence %s of proposal %s", CapturesFile, i, c.SHA256, c.Evidence, c.Proposal, w.SHA256, w.Evidence, w.Proposal)
		}
	})
	if n < len(v.captured) {
		w := v.captured[n]
		v.fail(CheckCaptures, "the capture %.12s… of evidence %s of proposal %s is recorded but not listed", w.SHA256, w.Evidence, w.Proposal)
	}
	v.pass(CheckCaptures, "%d digests of captured pages, each the one its EvidenceCaptured event records (the pages themselves are at /captures/{sha256})", len(v.captured))
}

// events replays events.jsonl: the ranking's methodology and its
// editions up to the bundle's, recomputing each edition's snapshot.
func (v *verifier) events() {
	m := v.rep.Manifest
	r := &domain.Ranking{}
	ed := &domain.Edition{Ranking: m.Ranking, Entries: map[string]*domain.PublishedEntry{}}
	var last uint64
	var head *events.EditionPublished
	editions, changes := 0, 0
	v.scan(EventsFile, func(n int, line []byte) {
		e, err := decodeEvent(line)
		if err != nil {
			v.fail(CheckEvents, "%s line %d: %v", EventsFile, n, err)
			return
		}
		if e.Sequence <= last || e.Sequence > m.Sequence {
			v.fail(CheckEvents, "%s line %d: sequence %d out of order or after the edition (%d)", EventsFile, n, e.Sequence, m.Sequence)
		}
		last = e.Sequence
		if e.Subject != m.Ranking {
			v.fail(CheckEvents, "%s line %d: an event of %s, not of ranking %s", EventsFile, n, e.Subject, m.Ranking)
			return
		}
		switch d := e.Data.(type) {
		case *events.RankingDefined, *events.WeightsSet, *events.ScenariosSet, *events.MethodologyPublished:
			r.Evolve(e)
		case *events.EditionPartRecorded:
			v.cites(d.Number, d.Changes)
			changes += len(d.Changes)
			ed.Evolve(e)
		case *events.EditionPublished:
			v.cites(d.Number, d.Changes)
			changes += len(d.Changes)
			v.edition(e, d, r, ed)
			head, editions = d, editions+1
		default:
			v.fail(CheckEvents, "%s line %d: a %s event has no place here", EventsFile, n, e.Type)
		}
	})
	switch {
	case head == nil:
		v.fail(CheckSnapshot, "the bundle holds no edition")
		return
	case head.Number != m.Edition || last != m.Sequence:
		v.fail(CheckEvents, "the last edition is %d at sequence %d, the manifest says %d at %d", head.Number, last, m.Edition, m.Sequence)
	case head.SnapshotHash != m.SnapshotHash:
		v.fail(CheckSnapshot, "the manifest says snapshot %.12s…, edition %d's head commits to %.12s…", m.SnapshotHash, m.Edition, head.SnapshotHash)
	}
	v.pass(CheckEvents, "methodology and %d editions of ranking %s (%d published changes) up to sequence %d, in order, each event as stored", editions, m.Ranking, changes, m.Sequence)
	v.pass(CheckSnapshot, "recomputed every edition's snapshot with BuildSnapshot; edition %d hashes to %s, as its head and the manifest say", m.Edition, m.SnapshotHash)
}

// edition applies an edition's head and checks the snapshot it commits to.
func (v *verifier) edition(e events.Event, d *events.EditionPublished, r *domain.Ranking, ed *domain.Edition) {
	if d.Size != nil {
		var got events.EditionSize
		if ed.Parts != nil && ed.Parts.Number == d.Number {
			got = ed.Parts.EditionSize
		}
		if got != *d.Size {
			v.fail(CheckEvents, "edition %d commits to %d parts (%d changes), the bundle holds %d (%d)", d.Number, d.Size.Parts, d.Size.Changes, got.Parts, got.Changes)
		}
	}
	ed.Evolve(e)
	if got := domain.BuildSnapshot(r, ed).Hash(); got != d.SnapshotHash {
		v.fail(CheckSnapshot, "edition %d commits to snapshot %.12s…, the events recompute %.12s…", d.Number, d.SnapshotHash, got)
	}
}

// cites checks that every evidence item an edition's changes cite is in
// the bundle.
func (v *verifier) cites(edition int, changes []events.AppliedChange) {
	for _, c := range changes {
		for _, id := range c.Evidence {
			if !v.added[c.Proposal+"/"+id] {
				v.fail(CheckEvidence, "edition %d: %s of %s (proposal %s) cites evidence %s, which the bundle does not hold", edition, c.Target, c.Entry, c.Proposal, id)
			}
		}
	}
}
