package projections

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// ErrGap means an event arrived out of order: the stream's sequences are
// contiguous (no deletes, no purges), so the runner resumes from the
// checkpoint instead of skipping anything.
var ErrGap = errors.New("projections: event out of order")

// projector applies events inside one transaction. It keeps the aggregate
// states it touches in memory and writes the dirty ones back at commit,
// and likewise each changed proposal's summary row.
type projector struct {
	w         *wconn
	states    map[events.Aggregate]any
	used      map[events.Aggregate]bool // states this batch read or wrote
	dirty     map[events.Aggregate]uint64
	snapshots map[string]domain.Snapshot            // latest edition snapshot by ranking (the next one's "before")
	ranks     map[string]map[string]domain.Standing // as the entries rows hold them, by ranking
	// scenarioRanks is what the scenario_ranks rows hold, by ranking:
	// (scenario, entry) → (total, rank).
	scenarioRanks map[string]map[[2]string][2]int
	proposals     map[string]proposalRow // summary rows to write
	audit         []any                  // audit rows to insert, auditColumns values each
	seq           uint64
	head          string
	chain         events.Chainer
	news          *newStates // a rebuild's: which states cannot be in the table; nil: any can
	// deferSearch leaves the documents marked in search_dirty for a
	// rebuild to index all at once after the load (indexAllSearch).
	deferSearch bool
}

func newProjector(w *wconn, c *memo, seq uint64, head string, news *newStates) *projector {
	return &projector{w: w, states: c.states, snapshots: c.snapshots, ranks: c.ranks, scenarioRanks: c.scenarioRanks, used: map[events.Aggregate]bool{}, dirty: map[events.Aggregate]uint64{},
		proposals: map[string]proposalRow{}, seq: seq, head: head, news: news}
}

// memo is what a Store remembers between batches: the aggregate states and
// the latest edition snapshots as of its checkpoint. It saves loading and
// decoding them again for every batch; the tables hold the same.
type memo struct {
	states        map[events.Aggregate]any
	snapshots     map[string]domain.Snapshot
	ranks         map[string]map[string]domain.Standing
	scenarioRanks map[string]map[[2]string][2]int
}

func newMemo() *memo {
	return &memo{states: map[events.Aggregate]any{}, snapshots: map[string]domain.Snapshot{},
		ranks: map[string]map[string]domain.Standing{}, scenarioRanks: map[string]map[[2]string][2]int{}}
}

func (p *projector) exec(q string, args ...any) error { return p.w.exec(q, args...) }

// insertRows inserts rows into a table ("table" or "table(col, …)"), given
// as their values one row after the other, with one statement per chunk of
// up to 64 rows: a statement's fixed cost is most of the cost of a small
// row, and an edition or a batch writes hundreds or thousands of rows.
// An optional upsert clause follows the values.
func (p *projector) insertRows(into string, columns int, values []any, upsert ...string) error {
	for n := len(values) / columns; n > 0; {
		k := 64
		for k > n {
			k /= 2 // chunks of powers of two: at most 7 statements to prepare per table
		}
		if err := p.exec(insertSQL(into, columns, k, upsert...), values[:k*columns]...); err != nil {
			return err
		}
		values, n = values[k*columns:], n-k
	}
	return nil
}

var insertSQLs sync.Map // "into/columns/rows" → INSERT statement

func insertSQL(into string, columns, rows int, upsert ...string) string {
	key := fmt.Sprintf("%s/%d/%d/%s", into, columns, rows, strings.Join(upsert, " "))
	if q, ok := insertSQLs.Load(key); ok {
		return q.(string)
	}
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", columns), ",") + ")"
	q := "INSERT INTO " + into + " VALUES " + strings.TrimSuffix(strings.Repeat(row+",", rows), ",")
	if len(upsert) > 0 {
		q += " " + strings.Join(upsert, " ")
	}
	insertSQLs.Store(key, q)
	return q
}

// auditInto names the audit columns in the order apply collects them.
const (
	auditInto    = "audit(seq, at, actor, kind, aggregate, type, event_id, msg, args, before, after, ranking, entry, proposal, hash, authvia)"
	auditColumns = 16
)

// state loads an aggregate's state from the states table (or a zero value).
func (p *projector) state(a events.Aggregate) (any, error) {
	if s, ok := p.states[a]; ok {
		p.used[a] = true
		return s, nil
	}
	s := domain.ZeroState(a)
	if s == nil {
		return nil, nil // webhooks keep no state
	}
	if p.news != nil && p.news.isNew(a) {
		if checkNewStates {
			if _, err := p.w.queryRow("SELECT state FROM states WHERE kind=? AND id=?", string(a.Kind), a.ID); !errors.Is(err, errNoRow) {
				return nil, fmt.Errorf("%w: %s (%v)", errNewStateFound, a, err)
			}
		}
		p.states[a] = s
		p.used[a] = true
		return s, nil
	}
	row, err := p.w.queryRow("SELECT state FROM states WHERE kind=? AND id=?", string(a.Kind), a.ID)
	switch {
	case errors.Is(err, errNoRow):
	case err != nil:
		return nil, err
	default:
		if err := json.Unmarshal([]byte(colText(row[0])), s); err != nil {
			return nil, fmt.Errorf("projections: state of %s: %w", a, err)
		}
	}
	p.states[a] = s
	p.used[a] = true
	return s, nil
}

func (p *projector) ranking(slug string) (*domain.Ranking, error) {
	s, err := p.state(domain.RankingID(slug))
	r, _ := s.(*domain.Ranking)
	return r, err
}

func (p *projector) edition(slug string) (*domain.Edition, error) {
	s, err := p.state(domain.EditionID(slug))
	ed, _ := s.(*domain.Edition)
	return ed, err
}

func (p *projector) proposal(id string) (*domain.Proposal, error) {
	s, err := p.state(domain.ProposalID(id))
	pr, _ := s.(*domain.Proposal)
	return pr, err
}

// flush writes the audit rows, the proposals' summary rows, the dirty
// states and the search index of the documents they changed.
func (p *projector) flush() error {
	if err := p.flushAudit(); err != nil {
		return err
	}
	if err := p.writeProposals(); err != nil {
		return err
	}
	for a, seq := range p.dirty {
		b, err := json.Marshal(p.states[a])
		if err != nil {
			return err
		}
		if err := p.exec(`INSERT INTO states(kind, id, seq, state) VALUES (?,?,?,?)
			ON CONFLICT(kind, id) DO UPDATE SET seq=excluded.seq, state=excluded.state`,
			string(a.Kind), a.ID, seq, string(b)); err != nil {
			return err
		}
	}
	clear(p.dirty)
	// Last: the rows above may have marked search documents.
	if p.deferSearch {
		return nil
	}
	return p.indexSearch()
}

// flushAudit inserts the audit rows collected so far.
func (p *projector) flushAudit() error {
	err := p.insertRows(auditInto, auditColumns, p.audit)
	clear(p.audit)
	p.audit = p.audit[:0]
	return err
}

// apply projects one event: the aggregate's state, its read-model rows and
// the audit row with the next link of the hash chain (head, when the
// caller computed it already).
func (p *projector) apply(ev events.Event, head string) error {
	if ev.Sequence != p.seq+1 {
		return fmt.Errorf("%w: got sequence %d after %d", ErrGap, ev.Sequence, p.seq)
	}
	agg := ev.Aggregate()
	s, err := p.state(agg)
	if err != nil {
		return err
	}
	var before any
	if pr, ok := s.(*domain.Proposal); ok && pr.Exists() {
		before = string(pr.Status)
	}
	if ev2, ok := s.(interface{ Evolve(events.Event) }); ok {
		ev2.Evolve(ev)
		p.dirty[agg] = ev.Sequence
	}
	a := auditRow{ev: ev, kind: string(agg.Kind), aggregate: agg.ID}
	if err := p.project(ev, s, &a); err != nil {
		return fmt.Errorf("projections: seq %d (%s): %w", ev.Sequence, ev.Type, err)
	}
	if a.before == "" && before != nil {
		if pr, ok := s.(*domain.Proposal); ok && string(pr.Status) != before {
			a.before, a.after = before.(string), string(pr.Status)
		}
	}
	if head == "" {
		head = p.chain.Next(p.head, ev)
	}
	p.head, p.seq = head, ev.Sequence
	// Audit rows are inserted together at the end of the batch (nothing
	// reads them before).
	// The row names the type as stored, the one its hash covers: a row
	// reads the same whichever version of Crossrank projected it, and the
	// filters match every version of an event (AuditFilter.Type). (Rows
	// projected before this rule named the type after upcasting; only
	// evidence_added.v1 events, from logs older than evidence v2, read
	// differently, and `crossrank verify` lists them until `crossrank
	// rebuild`: the row does not hold what a migration would need to tell.)
	if a.args == "" {
		a.args = "{}"
	}
	p.audit = append(p.audit, ev.Sequence, ts(ev.Time), ev.Actor, a.kind, a.aggregate, ev.StoredType, ev.ID, a.msg, a.args,
		a.before, a.after, a.ranking, a.entry, a.proposal, p.head, ev.AuthVia)
	return nil
}

// auditRow is the flattened form of one event in the audit trail.
type auditRow struct {
	ev                       events.Event
	kind, aggregate          string
	msg, args                string // what the event did: a message id and its arguments as JSON (say)
	before, after            string
	ranking, entry, proposal string
}

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

func nullInt(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func nullTags(t []string, isScore bool) any {
	if isScore {
		return nil
	}
	if t == nil {
		t = []string{}
	}
	return jsonText(t)
}
