package projections

import (
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// publish projects an edition: its snapshot and changelog, the new published
// scores with their evidence, ranks, rank moves, and the quorum of every
// open proposal (an edition may have changed their baselines).
func (p *projector) publish(ev events.Event, d *events.EditionPublished, ed *domain.Edition) error {
	r, err := p.ranking(d.Ranking)
	if err != nil {
		return err
	}
	after := domain.BuildSnapshot(r, ed)
	before, ok := p.snapshots[d.Ranking]
	if !ok || before.Edition != d.Number-1 {
		if before, err = p.snapshot(d.Ranking, d.Number-1); err != nil {
			return err
		}
	}
	p.snapshots[d.Ranking] = after
	proposals := d.Proposals
	if d.Size != nil && ed.Parts != nil {
		proposals = ed.Parts.Released
	}
	if err := p.exec(`INSERT INTO editions VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`, d.Ranking, d.Number, ts(ev.Time), ev.Actor,
		jsonText(nonNil(proposals)), string(after.JSON()), d.SnapshotHash, d.PreviewHash, d.AuditHead, d.AuditSeq, d.Note, ev.Sequence); err != nil {
		return err
	}
	if d.Schedule != "" {
		if err := p.exec(`UPDATE schedules SET state=?, edition=?, updated_at=?, seq=? WHERE ranking=? AND id=?`,
			domain.SchedulePublished, d.Number, ts(ev.Time), ev.Sequence, d.Ranking, d.Schedule); err != nil {
			return err
		}
	}
	if d.Size == nil { // a split edition's parts applied its lists
		if err := p.lists(d.Ranking, d.Number, 0, d.NewEntries, d.Changes); err != nil {
			return err
		}
	}
	if err := p.rerank(d.Ranking); err != nil {
		return err
	}
	if err := p.moves(d.Ranking, d.Number, before, after); err != nil {
		return err
	}
	if err := p.exec(`UPDATE rankings SET edition=? WHERE slug=?`, d.Number, d.Ranking); err != nil {
		return err
	}
	return p.requorum(d.Ranking)
}

// part projects one part of an edition split into parts: its lists, as an
// edition that comes whole projects them; the head that follows does the
// rest. ed has applied the part.
func (p *projector) part(ev events.Event, d *events.EditionPartRecorded, ed *domain.Edition) error {
	first := ed.Parts.Changes - len(d.Changes)
	return p.lists(ev.Subject, d.Number, first, d.NewEntries, d.Changes)
}

// lists projects an edition's new entries and its changes, numbered from
// first: the published scores and attributes with their evidence.
func (p *projector) lists(ranking string, number, first int, news []events.PublishedEntry, changes []events.AppliedChange) error {
	for _, ne := range news {
		if err := p.exec(`UPDATE entries SET published_edition=? WHERE ranking=? AND slug=?`, number, ranking, ne.Slug); err != nil {
			return err
		}
	}
	// The edition's change rows go in together after the loop, in chunks
	// of insertRows (nothing reads them before): a statement per row cost
	// about twice as much per row.
	rows := make([]any, 0, len(changes)*editionChangeColumns)
	for i, c := range changes {
		kind, key := targetParts(c.Target)
		isScore := kind == "score"
		rows = append(rows, ranking, number, first+i, c.Proposal,
			c.Entry, c.Target, nullInt(c.FromScore), nullInt(c.ToScore), nullTags(c.FromTags, isScore),
			nullTags(c.ToTags, isScore), jsonText(nonNil(c.Evidence)))
		if err := p.exec(`DELETE FROM published_evidence WHERE ranking=? AND entry=? AND target=?`, ranking, c.Entry, c.Target); err != nil {
			return err
		}
		for _, e := range c.Evidence {
			if err := p.exec(`INSERT INTO published_evidence VALUES (?,?,?,?,?)`, ranking, c.Entry, c.Target, c.Proposal, e); err != nil {
				return err
			}
		}
		var err error
		switch {
		case isScore && c.ToScore != nil:
			err = p.exec(`INSERT INTO scores VALUES (?,?,?,?,?,?) ON CONFLICT(ranking, entry, criterion) DO UPDATE
				SET score=excluded.score, proposal=excluded.proposal, edition=excluded.edition`,
				ranking, c.Entry, key, *c.ToScore, c.Proposal, number)
		case isScore:
			err = p.exec(`DELETE FROM scores WHERE ranking=? AND entry=? AND criterion=?`, ranking, c.Entry, key)
		case len(c.ToTags) == 0:
			err = p.exec(`DELETE FROM attributes WHERE ranking=? AND entry=? AND key=?`, ranking, c.Entry, key)
		default:
			err = p.exec(`INSERT INTO attributes VALUES (?,?,?,?,?,?) ON CONFLICT(ranking, entry, key) DO UPDATE
				SET tags=excluded.tags, proposal=excluded.proposal, edition=excluded.edition`,
				ranking, c.Entry, key, jsonText(c.ToTags), c.Proposal, number)
		}
		if err != nil {
			return err
		}
	}
	return p.insertRows("edition_changes", editionChangeColumns, rows)
}

// editionChangeColumns is the number of edition_changes' columns.
const editionChangeColumns = 11

// snapshot returns the stored snapshot of an edition (empty before the first).
func (p *projector) snapshot(ranking string, number int) (domain.Snapshot, error) {
	row, err := p.w.queryRow(`SELECT snapshot FROM editions WHERE ranking=? AND number=?`, ranking, number)
	if errors.Is(err, errNoRow) {
		return domain.Snapshot{}, nil
	}
	if err != nil {
		return domain.Snapshot{}, err
	}
	var s domain.Snapshot
	return s, json.Unmarshal([]byte(colText(row[0])), &s)
}

// moves records, in one row per entry, its rank before and after overall
// and in its category, its total before and after, and its rank before and
// after in each scenario (scenarioMoves). Before is NULL for an entry new
// in the edition.
func (p *projector) moves(ranking string, number int, before, after domain.Snapshot) error {
	type pos struct{ rank, catRank, total int }
	prev := make(map[string]pos, len(before.Entries))
	for _, e := range before.Entries {
		prev[e.Slug] = pos{e.Rank, e.CategoryRank, e.Total}
	}
	// Every scenario orders the same entries as the snapshot; its rank
	// before is 0 for an entry it did not order.
	type scenRanks struct{ before, after map[string]int }
	scen := make([]scenRanks, len(after.Scenarios))
	for i, s := range after.Scenarios {
		scen[i].after = make(map[string]int, len(s.Order))
		for j, e := range s.Order {
			scen[i].after[e] = j + 1
		}
		if k := slices.IndexFunc(before.Scenarios, func(b domain.SnapshotScenario) bool { return b.Slug == s.Slug }); k >= 0 {
			scen[i].before = make(map[string]int, len(before.Scenarios[k].Order))
			for j, e := range before.Scenarios[k].Order {
				scen[i].before[e] = j + 1
			}
		}
	}
	entries := slices.Clone(after.Entries)
	// In primary key order: SQLite appends to the table's B-tree instead
	// of inserting all over the edition's range.
	slices.SortFunc(entries, func(x, y domain.SnapshotEntry) int { return strings.Compare(x.Slug, y.Slug) })
	rows := make([]any, 0, 10*len(entries))
	var buf []byte
	for _, e := range entries {
		var b, bc, bt any
		if old, ok := prev[e.Slug]; ok {
			b, bc, bt = old.rank, old.catRank, old.total
		}
		buf = append(buf[:0], '{')
		for i, s := range after.Scenarios {
			a, ok := scen[i].after[e.Slug]
			if !ok {
				return fmt.Errorf("projections: edition %s/%d: scenario %s does not order %s", ranking, number, s.Slug, e.Slug)
			}
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendScenarioMove(buf, s.Slug, scen[i].before[e.Slug], a)
		}
		buf = append(buf, '}')
		rows = append(rows, ranking, number, e.Slug, b, e.Rank, bc, e.CategoryRank, bt, e.Total, string(buf))
	}
	return p.insertRows("edition_moves", 10, rows)
}

// appendScenarioMove appends one member of the scenarios column,
// "slug":[before,after] with null for a before of 0 (not ranked before):
// the same bytes as SQLite's json_group_object(slug, json_array(before,
// after)), which migration 012 used to fold the older rows.
func appendScenarioMove(buf []byte, slug string, before, after int) []byte {
	if plainSlug(slug) {
		buf = append(append(append(buf, '"'), slug...), '"')
	} else {
		q, err := json.Marshal(slug) // a string always marshals
		if err != nil {
			panic("projections: " + err.Error())
		}
		buf = append(buf, q...)
	}
	buf = append(buf, ':', '[')
	if before == 0 {
		buf = append(buf, "null"...)
	} else {
		buf = strconv.AppendInt(buf, int64(before), 10)
	}
	buf = append(buf, ',')
	buf = strconv.AppendInt(buf, int64(after), 10)
	return append(buf, ']')
}

// plainSlug reports whether s needs no escaping in JSON (domain.CheckSlug
// allows only these bytes).
func plainSlug(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// requorum refreshes the summary row of every open proposal of the ranking.
// The open proposals are those the table lists as open, with the rows
// recorded since the last write (not yet in the table) taking precedence:
// reading them from the table alone would mean writing them first, and a
// proposal's row would be written at every edition instead of once per
// transaction.
func (p *projector) requorum(ranking string) error {
	var open [][2]string // id, updated_at
	err := p.w.query(`SELECT id, updated_at FROM proposals
		WHERE ranking=? AND status IN ('draft','in_review','cross_validated') ORDER BY id`, []any{ranking},
		func(row []driver.Value) error {
			if id := colText(row[0]); p.proposals[id].pr == nil {
				open = append(open, [2]string{id, colText(row[1])})
			}
			return nil
		})
	if err != nil {
		return err
	}
	for id, row := range p.proposals {
		if row.pr.Ranking == ranking && row.pr.Status.Open() {
			open = append(open, [2]string{id, row.at})
		}
	}
	for _, o := range open {
		id, at := o[0], o[1]
		pr, err := p.proposal(id)
		if err != nil {
			return err
		}
		if err := p.saveProposalAt(pr, at); err != nil {
			return err
		}
	}
	return nil
}
