// Package history writes synthetic editorial histories into an event store:
// the datasets of the read models' tests and benchmarks and of `crossrank
// bench`. It imports the domain and the events, never the read models, and
// only tests and the benchmark import it.
package history

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// Generate appends a synthetic editorial history of at least n events
// to store: three rankings and their desk, then waves of proposals (new
// entries, evidence, score and attribute changes) that are submitted, voted
// on — with vetoes, revisions, dismissed vetoes, withdrawals, rejections and
// proposals returned to review by a later edition — and published as
// editions, with the odd weight change and token or role change in between.
//
// Every event comes from the domain's own Decide functions on states the
// generator evolves itself, so it is a history the desk could have written,
// and projections.Verify accepts it (on an empty store, editions also commit the audit
// chain head). Ids, times and choices derive from seed: on an empty store
// the same seed gives the same events, and a seed's aggregates exist once
// per store (a second run with the same seed fails with ErrConflict).
// Events go out in batches of about 100 per Append (a command's events
// never straddle two), each with an expectation per aggregate, so the store
// must have no other writer meanwhile. It feeds the projections' BenchmarkRebuild100k
// and `crossrank bench`.
//
// The history has the shape commands appended before a vote's change of
// status was folded into the vote (Writer.Folded); GenerateFolded writes
// the same history as commands append it now.
func Generate(ctx context.Context, store events.Store, n int, seed int64) error {
	return generate(ctx, store, n, seed, false)
}

// GenerateFolded is Generate with every transition inside the vote or
// dismissed veto that caused it: the same decisions at the same times and
// with the same ids, in fewer events.
func GenerateFolded(ctx context.Context, store events.Store, n int, seed int64) error {
	return generate(ctx, store, n, seed, true)
}

func generate(ctx context.Context, store events.Store, n int, seed int64, folded bool) error {
	w, err := NewWriter(ctx, store, "synthetic history", rand.New(rand.NewPCG(uint64(seed), 0x63726f737372616e)),
		time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC), 600)
	if err != nil {
		return err
	}
	w.Folded = folded
	s := &generator{Writer: w, prefix: fmt.Sprintf("s%x", uint32(seed))}
	if err := s.world(); err != nil {
		return err
	}
	for i := 0; s.Count() < n; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The first ranking is the desk's main one: half of the editions.
		if err := s.wave(s.desks[[]int{0, 1, 0, 2}[i%4]]); err != nil {
			return err
		}
	}
	return s.Flush()
}

// generator is Generate's state: the writer, and the desk it simulates.
type generator struct {
	*Writer
	prefix string

	editors, reviewers, publishers []string
	tokens                         [][2]string // live API tokens: user, token id
	desks                          []*desk
}

func (s *generator) pick(names []string) string { return names[s.Rng.IntN(len(names))] }

// users registers the desk: editors, reviewers and publishers. The
// publishers also administer users (the admin role): an admin of their own
// would be one more decision, and every random step after it, so every
// history generated for a seed, would change.
func (s *generator) users() error {
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
			if g.role == domain.RolePublisher {
				c.Roles = append(c.Roles, domain.RoleAdmin)
			}
			if err := s.As(domain.System())(domain.DecideRegisterUser(s.User(name), domain.System(), c)); err != nil {
				return err
			}
		}
	}
	return s.issueToken(s.editors[0]) // the desk's import script
}

// accounts makes the account change a desk sees between editions now and
// then: API tokens issued and revoked, a role granted for a while, a new
// password.
func (s *generator) accounts() error {
	adm := s.Actor(s.pick(s.publishers)) // who also hold the admin role
	switch x := s.Rng.IntN(20); {
	case x < 4:
		return s.issueToken(s.pick(s.reviewers))
	case x < 10:
		return s.issueToken(s.pick(s.editors))
	case x < 15 && len(s.tokens) > 0:
		t := s.tokens[0]
		s.tokens = s.tokens[1:]
		return s.As(adm)(domain.DecideRevokeToken(s.User(t[0]), adm, t[1]))
	case x < 17:
		name := s.pick(s.reviewers)
		if err := s.As(adm)(domain.DecideGrantRole(s.User(name), adm, domain.RolePublisher)); err != nil {
			return err
		}
		return s.As(adm)(domain.DecideRevokeRole(s.User(name), adm, domain.RolePublisher))
	case x < 18:
		name := s.pick(s.editors)
		return s.As(s.Actor(name))(domain.DecideChangePassword(s.User(name), s.Actor(name), "$argon2id$v=19$m=65536,t=3,p=2$bmV3$aGFzaA"))
	}
	return nil
}

// maxTokens is the domain's limit of tokens a user may ever be issued,
// revoked ones included (DecideIssueToken); histories of about 300k events
// and more reach it.
const maxTokens = 100

func (s *generator) issueToken(name string) error {
	if len(s.User(name).Tokens) >= maxTokens {
		return nil // a long history: this user has had all the tokens they may
	}
	tok := fmt.Sprintf("t%d", s.Next())
	c := domain.IssueToken{TokenID: tok, Name: "script " + tok, Hash: fmt.Sprintf("%064x", s.Rng.Uint64()),
		ExpiresAt: s.Clock.AddDate(0, 6, 0)}
	s.tokens = append(s.tokens, [2]string{name, tok})
	return s.As(s.Actor(name))(domain.DecideIssueToken(s.User(name), s.Actor(name), c))
}
