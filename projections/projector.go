package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// ErrGap means an event arrived out of order: the stream's sequences are
// contiguous (no deletes, no purges), so the runner resumes from the
// checkpoint instead of skipping anything.
var ErrGap = errors.New("projections: event out of order")

// projector applies events inside one transaction. It keeps the aggregate
// states it touches in memory and writes the dirty ones back at commit.
type projector struct {
	tx     *sql.Tx
	ctx    context.Context
	states map[events.Aggregate]any
	dirty  map[events.Aggregate]uint64
	seq    uint64
	head   string
}

func (p *projector) exec(q string, args ...any) error {
	_, err := p.tx.ExecContext(p.ctx, q, args...)
	return err
}

// state loads an aggregate's state from the states table (or a zero value).
func (p *projector) state(a events.Aggregate) (any, error) {
	if s, ok := p.states[a]; ok {
		return s, nil
	}
	var s any
	switch a.Kind {
	case events.KindRanking:
		s = &domain.Ranking{}
	case events.KindEntry:
		s = &domain.Entry{}
	case events.KindProposal:
		s = &domain.Proposal{}
	case events.KindEdition:
		s = &domain.Edition{Ranking: a.ID, Entries: map[string]*domain.PublishedEntry{}}
	case events.KindUser:
		s = &domain.User{}
	default:
		return nil, nil // webhooks keep no state
	}
	var raw string
	err := p.tx.QueryRowContext(p.ctx, "SELECT state FROM states WHERE kind=? AND id=?", string(a.Kind), a.ID).Scan(&raw)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return nil, err
	default:
		if err := json.Unmarshal([]byte(raw), s); err != nil {
			return nil, fmt.Errorf("projections: state of %s: %w", a, err)
		}
	}
	p.states[a] = s
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

// flush writes the dirty states back.
func (p *projector) flush() error {
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
	return nil
}

// apply projects one event: the aggregate's state, its read-model rows and
// the audit row with the next link of the hash chain.
func (p *projector) apply(ev events.Event) error {
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
	p.head = events.ChainHash(p.head, ev)
	p.seq = ev.Sequence
	return p.exec(`INSERT INTO audit(seq, at, actor, kind, aggregate, type, event_id, summary_en, summary_zh,
		before, after, ranking, entry, proposal, hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		ev.Sequence, ts(ev.Time), ev.Actor, a.kind, a.aggregate, ev.Type, ev.ID, a.en, a.zh,
		a.before, a.after, a.ranking, a.entry, a.proposal, p.head)
}

// auditRow is the flattened form of one event in the audit trail.
type auditRow struct {
	ev                       events.Event
	kind, aggregate          string
	en, zh                   string
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
