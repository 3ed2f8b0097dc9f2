package projections

import (
	"cmp"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"slices"
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
	if err := p.exec(`INSERT INTO editions VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`, d.Ranking, d.Number, ts(ev.Time), ev.Actor,
		jsonText(nonNil(d.Proposals)), string(after.JSON()), d.SnapshotHash, d.PreviewHash, d.AuditHead, d.AuditSeq, d.Note, ev.Sequence); err != nil {
		return err
	}
	if d.Schedule != "" {
		if err := p.exec(`UPDATE schedules SET state=?, edition=?, updated_at=?, seq=? WHERE ranking=? AND id=?`,
			domain.SchedulePublished, d.Number, ts(ev.Time), ev.Sequence, d.Ranking, d.Schedule); err != nil {
			return err
		}
	}
	for _, ne := range d.NewEntries {
		if err := p.exec(`UPDATE entries SET published_edition=? WHERE ranking=? AND slug=?`, d.Number, d.Ranking, ne.Slug); err != nil {
			return err
		}
	}
	for i, c := range d.Changes {
		kind, key := targetParts(c.Target)
		isScore := kind == "score"
		if err := p.exec(`INSERT INTO edition_changes VALUES (?,?,?,?,?,?,?,?,?,?,?)`, d.Ranking, d.Number, i, c.Proposal,
			c.Entry, c.Target, nullInt(c.FromScore), nullInt(c.ToScore), nullTags(c.FromTags, isScore),
			nullTags(c.ToTags, isScore), jsonText(nonNil(c.Evidence))); err != nil {
			return err
		}
		if err := p.exec(`DELETE FROM published_evidence WHERE ranking=? AND entry=? AND target=?`, d.Ranking, c.Entry, c.Target); err != nil {
			return err
		}
		for _, e := range c.Evidence {
			if err := p.exec(`INSERT INTO published_evidence VALUES (?,?,?,?,?)`, d.Ranking, c.Entry, c.Target, c.Proposal, e); err != nil {
				return err
			}
		}
		switch {
		case isScore && c.ToScore != nil:
			err = p.exec(`INSERT INTO scores VALUES (?,?,?,?,?,?) ON CONFLICT(ranking, entry, criterion) DO UPDATE
				SET score=excluded.score, proposal=excluded.proposal, edition=excluded.edition`,
				d.Ranking, c.Entry, key, *c.ToScore, c.Proposal, d.Number)
		case isScore:
			err = p.exec(`DELETE FROM scores WHERE ranking=? AND entry=? AND criterion=?`, d.Ranking, c.Entry, key)
		case len(c.ToTags) == 0:
			err = p.exec(`DELETE FROM attributes WHERE ranking=? AND entry=? AND key=?`, d.Ranking, c.Entry, key)
		default:
			err = p.exec(`INSERT INTO attributes VALUES (?,?,?,?,?,?) ON CONFLICT(ranking, entry, key) DO UPDATE
				SET tags=excluded.tags, proposal=excluded.proposal, edition=excluded.edition`,
				d.Ranking, c.Entry, key, jsonText(c.ToTags), c.Proposal, d.Number)
		}
		if err != nil {
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

// moves records every entry's rank before and after, overall, in its
// category and in each scenario.
func (p *projector) moves(ranking string, number int, before, after domain.Snapshot) error {
	type pos struct{ rank, catRank, total int }
	prev := map[string]pos{}
	for _, e := range before.Entries {
		prev[e.Slug] = pos{e.Rank, e.CategoryRank, e.Total}
	}
	type move struct {
		entry, scope string
		b            *int
		a            int
		bt           *int
		at           int
	}
	var ms []move
	ins := func(entry, scope string, b *int, a int, bt *int, at int) error {
		ms = append(ms, move{entry, scope, b, a, bt, at})
		return nil
	}
	for _, e := range after.Entries {
		var b, bc, bt *int
		if old, ok := prev[e.Slug]; ok {
			b, bc, bt = &old.rank, &old.catRank, &old.total
		}
		if err := ins(e.Slug, "overall", b, e.Rank, bt, e.Total); err != nil {
			return err
		}
		if err := ins(e.Slug, "category", bc, e.CategoryRank, bt, e.Total); err != nil {
			return err
		}
	}
	prevScen := map[string]map[string]int{}
	for _, s := range before.Scenarios {
		prevScen[s.Slug] = map[string]int{}
		for i, e := range s.Order {
			prevScen[s.Slug][e] = i + 1
		}
	}
	for _, s := range after.Scenarios {
		for i, e := range s.Order {
			var b *int
			if r, ok := prevScen[s.Slug][e]; ok {
				b = &r
			}
			if err := ins(e, "scenario:"+s.Slug, b, i+1, nil, 0); err != nil {
				return err
			}
		}
	}
	// In primary key order: SQLite appends to the table's B-tree instead
	// of inserting all over the edition's range.
	slices.SortFunc(ms, func(x, y move) int {
		return cmp.Or(strings.Compare(x.entry, y.entry), strings.Compare(x.scope, y.scope))
	})
	rows := make([]any, 0, 8*len(ms))
	for _, m := range ms {
		rows = append(rows, ranking, number, m.entry, m.scope, nullInt(m.b), m.a, nullInt(m.bt), m.at)
	}
	return p.insertRows("edition_moves", 8, rows)
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
