package projections

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// GenerateHistory appends a synthetic editorial history of at least n events
// to store: three rankings and their desk, then waves of proposals (new
// entries, evidence, score and attribute changes) that are submitted, voted
// on — with vetoes, revisions, dismissed vetoes, withdrawals, rejections and
// proposals returned to review by a later edition — and published as
// editions, with the odd weight change and token or role change in between.
//
// Every event comes from the domain's own Decide functions on states the
// generator evolves itself, so it is a history the desk could have written,
// and Verify accepts it (on an empty store, editions also commit the audit
// chain head). Ids, times and choices derive from seed: on an empty store
// the same seed gives the same events, and a seed's aggregates exist once
// per store (a second run with the same seed fails with ErrConflict).
// Events go out in batches of about 100 per Append (a command's events
// never straddle two), each with an expectation per aggregate, so the store
// must have no other writer meanwhile. It feeds BenchmarkRebuild100k and
// `crossrank bench`.
func GenerateHistory(ctx context.Context, store events.Store, n int, seed int64) error {
	last, err := store.LastSequence(ctx)
	if err != nil {
		return err
	}
	s := &synth{
		ctx: ctx, store: store,
		rng:    rand.New(rand.NewPCG(uint64(seed), 0x63726f737372616e)),
		prefix: fmt.Sprintf("s%x", uint32(seed)),
		clock:  time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC),
		next:   last + 1, chained: last == 0,
		states: map[events.Aggregate]any{}, stored: map[events.Aggregate]uint64{},
	}
	if err := s.world(); err != nil {
		return err
	}
	for i := 0; s.count < n; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The first ranking is the desk's main one: half of the editions.
		if err := s.wave(s.desks[[]int{0, 1, 0, 2}[i%4]]); err != nil {
			return err
		}
	}
	return s.flush()
}

// synthBatch is how many events the generator appends at once.
const synthBatch = 100

// synth is the generator's state: the domain states it evolves, the last
// stored sequence of every aggregate (the append expectations) and the batch
// being collected.
type synth struct {
	ctx    context.Context
	store  events.Store
	rng    *rand.Rand
	prefix string
	clock  time.Time

	next    uint64 // sequence the next event will be stored at
	chained bool   // the store was empty: head is the audit chain head
	head    string
	count   int

	states map[events.Aggregate]any
	stored map[events.Aggregate]uint64
	batch  []events.Event

	editors, reviewers, publishers []string
	tokens                         [][2]string // live API tokens: user, token id
	desks                          []*desk
}

// as returns the function that turns a decision by actor into events: one
// id and time per command, the sequences they will be stored at, and the
// states evolved.
func (s *synth) as(actor domain.Actor) func([]domain.Change, error) error {
	return func(changes []domain.Change, err error) error { return s.emit(actor, changes, err) }
}

func (s *synth) emit(actor domain.Actor, changes []domain.Change, err error) error {
	if err != nil {
		return fmt.Errorf("synthetic history: %s: %w", actor.Name, err)
	}
	if len(s.batch)+len(changes) > synthBatch {
		if err := s.flush(); err != nil {
			return err
		}
	}
	s.clock = s.clock.Add(time.Duration(5+s.rng.IntN(600)) * time.Second)
	first := ""
	for _, c := range changes {
		ev, err := events.New(s.id(), s.clock, actor.Name, c.Aggregate.ID, c.Data)
		if err != nil {
			return err
		}
		if first == "" {
			first = ev.ID
		}
		ev.CorrelationID, ev.CausationID = first, first
		ev.Sequence = s.next
		s.next++
		s.state(c.Aggregate).(interface{ Evolve(events.Event) }).Evolve(ev)
		if s.chained {
			s.head = events.ChainHash(s.head, ev)
		}
		s.batch = append(s.batch, ev)
	}
	s.count += len(changes)
	return nil
}

// flush appends the batch with the last stored sequence of each aggregate
// it writes as expectation.
func (s *synth) flush() error {
	if len(s.batch) == 0 {
		return nil
	}
	var expect []events.Expectation
	seen := map[events.Aggregate]bool{}
	for _, ev := range s.batch {
		if a := ev.Aggregate(); !seen[a] {
			seen[a] = true
			expect = append(expect, events.Expectation{Aggregate: a, LastSeq: s.stored[a]})
		}
	}
	last, err := s.store.Append(s.ctx, expect, s.batch...)
	if err != nil {
		return fmt.Errorf("synthetic history: append: %w", err)
	}
	if want := s.batch[len(s.batch)-1].Sequence; last != want {
		return fmt.Errorf("synthetic history: stored at %d, expected %d: another writer is appending", last, want)
	}
	for _, ev := range s.batch {
		s.stored[ev.Aggregate()] = ev.Sequence
	}
	s.batch = s.batch[:0]
	return nil
}

// id returns a UUIDv7 with the clock's milliseconds and seeded random bits.
func (s *synth) id() string {
	var u [16]byte
	binary.BigEndian.PutUint64(u[0:8], uint64(s.clock.UnixMilli())<<16|0x7000|s.rng.Uint64()&0x0fff)
	binary.BigEndian.PutUint64(u[8:16], s.rng.Uint64())
	u[8] = u[8]&0x3f | 0x80
	h := hex.EncodeToString(u[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

func (s *synth) state(a events.Aggregate) any {
	if st, ok := s.states[a]; ok {
		return st
	}
	var st any
	switch a.Kind {
	case events.KindRanking:
		st = &domain.Ranking{}
	case events.KindEntry:
		st = &domain.Entry{}
	case events.KindProposal:
		st = &domain.Proposal{}
	case events.KindEdition:
		st = &domain.Edition{Ranking: a.ID, Entries: map[string]*domain.PublishedEntry{}}
	case events.KindUser:
		st = &domain.User{}
	default:
		panic("synthetic history: no state for " + a.String())
	}
	s.states[a] = st
	return st
}

func (s *synth) ranking(slug string) *domain.Ranking {
	return s.state(domain.RankingID(slug)).(*domain.Ranking)
}
func (s *synth) edition(slug string) *domain.Edition {
	return s.state(domain.EditionID(slug)).(*domain.Edition)
}
func (s *synth) proposal(id string) *domain.Proposal {
	return s.state(domain.ProposalID(id)).(*domain.Proposal)
}
func (s *synth) entry(r, e string) *domain.Entry {
	return s.state(domain.EntryID(r, e)).(*domain.Entry)
}
func (s *synth) user(name string) *domain.User { return s.state(domain.UserID(name)).(*domain.User) }

func (s *synth) actor(name string) domain.Actor { return s.user(name).Actor() }

func (s *synth) pick(names []string) string { return names[s.rng.IntN(len(names))] }

// users registers the desk: editors, reviewers and publishers.
func (s *synth) users() error {
	for _, g := range []struct {
		role string
		n    int
		into *[]string
	}{{domain.RoleEditor, 6, &s.editors}, {domain.RoleReviewer, 8, &s.reviewers}, {domain.RolePublisher, 2, &s.publishers}} {
		for i := 1; i <= g.n; i++ {
			name := fmt.Sprintf("%s-%s%d", s.prefix, g.role[:3], i)
			*g.into = append(*g.into, name)
			c := domain.RegisterUser{Username: name, DisplayName: fmt.Sprintf("%s %d", g.role, i),
				PasswordHash: "$argon2id$v=19$m=65536,t=3,p=2$c3ludGhldGlj$aGFzaA", Roles: []string{g.role}}
			if err := s.as(domain.System())(domain.DecideRegisterUser(s.user(name), domain.System(), c)); err != nil {
				return err
			}
		}
	}
	return s.issueToken(s.editors[0]) // the desk's import script
}

// accounts makes the account change a desk sees between editions now and
// then: API tokens issued and revoked, a role granted for a while, a new
// password.
func (s *synth) accounts() error {
	pub := s.actor(s.pick(s.publishers))
	switch x := s.rng.IntN(20); {
	case x < 4:
		return s.issueToken(s.pick(s.reviewers))
	case x < 10:
		return s.issueToken(s.pick(s.editors))
	case x < 15 && len(s.tokens) > 0:
		t := s.tokens[0]
		s.tokens = s.tokens[1:]
		return s.as(pub)(domain.DecideRevokeToken(s.user(t[0]), pub, t[1]))
	case x < 17:
		name := s.pick(s.reviewers)
		if err := s.as(pub)(domain.DecideGrantRole(s.user(name), pub, domain.RolePublisher)); err != nil {
			return err
		}
		return s.as(pub)(domain.DecideRevokeRole(s.user(name), pub, domain.RolePublisher))
	case x < 18:
		name := s.pick(s.editors)
		return s.as(s.actor(name))(domain.DecideChangePassword(s.user(name), s.actor(name), "$argon2id$v=19$m=65536,t=3,p=2$bmV3$aGFzaA"))
	}
	return nil
}

// synthMaxTokens is the domain's limit of tokens a user may ever be issued,
// revoked ones included (DecideIssueToken); histories of about 300k events
// and more reach it.
const synthMaxTokens = 100

func (s *synth) issueToken(name string) error {
	if len(s.user(name).Tokens) >= synthMaxTokens {
		return nil // a long history: this user has had all the tokens they may
	}
	tok := fmt.Sprintf("t%d", s.next)
	c := domain.IssueToken{TokenID: tok, Name: "script " + tok, Hash: fmt.Sprintf("%064x", s.rng.Uint64()),
		ExpiresAt: s.clock.AddDate(0, 6, 0)}
	s.tokens = append(s.tokens, [2]string{name, tok})
	return s.as(s.actor(name))(domain.DecideIssueToken(s.user(name), s.actor(name), c))
}
