package domain_test

import (
	"errors"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// userState evolves a user from its registration (and any later events).
func userState(t testing.TB, name string, roles []string, more ...any) *domain.User {
	t.Helper()
	u := &domain.User{}
	all := append([]any{&events.UserRegistered{Username: name, DisplayName: name, PasswordHash: "$argon2id$v=19$x", Roles: roles}}, more...)
	for i, d := range all {
		e, err := events.New("u-"+name+"-"+string(rune('a'+i)), t0, "pat", name, d)
		if err != nil {
			t.Fatal(err)
		}
		e.Sequence = uint64(i + 1)
		u.Evolve(e)
	}
	return u
}

const sha = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

// TestRoleRequired runs every command as every test actor lacking the role
// it needs, and as a nameless actor holding every role: all are refused
// with ErrRoleRequired before anything else is looked at.
func TestRoleRequired(t *testing.T) {
	type command struct {
		name  string
		role  string
		given func() []given
		run   func(w *world, a domain.Actor) error
	}
	errOf := func(_ []domain.Change, err error) error { return err }
	commands := []command{
		{"DefineRanking", domain.RolePublisher, func() []given { return nil }, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideDefineRanking(w.ranking, a, rankingDefinition()))
		}},
		{"SetWeights", domain.RolePublisher, defined, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideSetWeights(w.ranking, a, map[string]int{"price": 50, "perf": 50}))
		}},
		{"SetScenarios", domain.RolePublisher, defined, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideSetScenarios(w.ranking, a, events.ScenariosSet{}))
		}},
		{"OpenProposal", domain.RoleEditor, defined, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideOpenProposal(w.ranking, w.entry("acme"), w.edition, w.prop("p2"), a,
				domain.OpenProposal{ID: "p2", Ranking: rk, Entry: "acme", Title: "t"}))
		}},
		{"AddEvidence", domain.RoleEditor, p1Draft, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideAddEvidence(w.prop("p1"), a, domain.AddEvidence{Claim: "c", SourceName: "s", Excerpt: "x", ObservedOn: "2026-01-01"}))
		}},
		{"RemoveEvidence", domain.RoleEditor, p1Draft, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideRemoveEvidence(w.prop("p1"), a, "e2"))
		}},
		{"ProposeScore", domain.RoleEditor, p1Draft, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideProposeScore(w.ranking, w.edition, w.prop("p1"), a,
				domain.ProposeScore{Criterion: "perf", To: 7, Rationale: "r", Evidence: []string{"e1"}}))
		}},
		{"ProposeAttribute", domain.RoleEditor, p1Draft, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideProposeAttribute(w.ranking, w.edition, w.prop("p1"), a,
				domain.ProposeAttribute{Attribute: "root", To: []string{"no"}, Rationale: "r", Evidence: []string{"e1"}}))
		}},
		{"RemoveChange", domain.RoleEditor, p1Draft, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideRemoveChange(w.prop("p1"), a, "score:price"))
		}},
		{"Submit", domain.RoleEditor, p1Draft, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideSubmit(w.edition, w.prop("p1"), a))
		}},
		{"Revise", domain.RoleEditor, p1InReview, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideRevise(w.edition, w.prop("p1"), a, ""))
		}},
		{"Withdraw", domain.RoleEditor, p1InReview, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideWithdraw(w.prop("p1"), a, ""))
		}},
		{"CastVote", domain.RoleReviewer, p1InReview, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideCastVote(w.ranking, w.edition, w.prop("p1"), a,
				domain.CastVote{Revision: 1, Verdict: approve, VerifiedEvidence: []string{"e1"}}))
		}},
		{"DismissVeto", domain.RolePublisher, func() []given { return cat(p1InReview(), []given{voted("p1", "rosa", 1, reject)}) },
			func(w *world, a domain.Actor) error {
				return errOf(domain.DecideDismissVeto(w.ranking, w.edition, w.prop("p1"), a, "rosa", "reason"))
			}},
		{"Reject", domain.RolePublisher, p1InReview, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideReject(w.prop("p1"), a, "reason"))
		}},
		{"Publish", domain.RolePublisher, p1Validated, func(w *world, a domain.Actor) error {
			chosen := []*domain.Proposal{w.prop("p1")}
			pv, err := domain.Preview(w.ranking, w.edition, chosen, nil)
			if err != nil {
				return err
			}
			return errOf(domain.DecidePublish(w.ranking, w.edition, chosen, nil, nil, a,
				domain.PublishEdition{Ranking: rk, Proposals: []string{"p1"}, PreviewHash: pv.Hash}))
		}},
		{"RegisterUser", domain.RolePublisher, func() []given { return nil }, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideRegisterUser(&domain.User{}, a, domain.RegisterUser{Username: "newbie", PasswordHash: "$argon2id$v=19$x"}))
		}},
		{"GrantRole", domain.RolePublisher, func() []given { return nil }, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideGrantRole(userState(w.t, "zed", nil), a, domain.RoleEditor))
		}},
		{"RevokeRole", domain.RolePublisher, func() []given { return nil }, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideRevokeRole(userState(w.t, "zed", []string{domain.RoleEditor}), a, domain.RoleEditor))
		}},
	}
	for _, c := range commands {
		for name, a := range actors {
			if a.Has(c.role) {
				continue
			}
			t.Run(c.name+"/"+name, func(t *testing.T) {
				w := newWorld(t, c.given())
				if err := c.run(w, a); !errors.Is(err, domain.ErrRoleRequired) {
					t.Errorf("%s as %s (roles %v): %v, want ErrRoleRequired", c.name, name, a.Roles, err)
				}
			})
		}
		t.Run(c.name+"/nameless", func(t *testing.T) {
			w := newWorld(t, c.given())
			if err := c.run(w, domain.Actor{Roles: domain.Roles}); !errors.Is(err, domain.ErrRoleRequired) {
				t.Errorf("%s without a name: %v, want ErrRoleRequired", c.name, err)
			}
		})
	}
}

// TestSelfServiceCommands: a user changes their own password and tokens
// without any role; anyone else needs the publisher role.
func TestSelfServiceCommands(t *testing.T) {
	zed := func(t *testing.T) *domain.User {
		return userState(t, "zed", nil, &events.TokenIssued{TokenID: "t1", Name: "laptop", Hash: sha})
	}
	self := domain.Actor{Name: "zed"}
	commands := []struct {
		name string
		run  func(u *domain.User, a domain.Actor) ([]domain.Change, error)
	}{
		{"ChangePassword", func(u *domain.User, a domain.Actor) ([]domain.Change, error) {
			return domain.DecideChangePassword(u, a, "$argon2id$v=19$y")
		}},
		{"IssueToken", func(u *domain.User, a domain.Actor) ([]domain.Change, error) {
			return domain.DecideIssueToken(u, a, domain.IssueToken{TokenID: "t2", Name: "ci", Hash: sha})
		}},
		{"RevokeToken", func(u *domain.User, a domain.Actor) ([]domain.Change, error) {
			return domain.DecideRevokeToken(u, a, "t1")
		}},
	}
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			if _, err := c.run(zed(t), self); err != nil {
				t.Errorf("as the user: %v", err)
			}
			if _, err := c.run(zed(t), actor("pat")); err != nil {
				t.Errorf("as a publisher: %v", err)
			}
			for _, who := range []string{"alice", "rita", "nobody"} {
				if _, err := c.run(zed(t), actor(who)); !errors.Is(err, domain.ErrRoleRequired) {
					t.Errorf("as %s: %v, want ErrRoleRequired", who, err)
				}
			}
		})
	}
}

func TestDecideUsers(t *testing.T) {
	pat := actor("pat")
	t.Run("register", func(t *testing.T) {
		got, err := domain.DecideRegisterUser(&domain.User{}, pat, domain.RegisterUser{Username: "zed", DisplayName: "Zed",
			PasswordHash: "$argon2id$v=19$x", Roles: []string{domain.RoleReviewer, domain.RoleEditor, domain.RoleReviewer}})
		want := changes(domain.Change{Aggregate: domain.UserID("zed"), Data: &events.UserRegistered{Username: "zed", DisplayName: "Zed",
			PasswordHash: "$argon2id$v=19$x", Roles: []string{domain.RoleEditor, domain.RoleReviewer}}})
		if err != nil || show(got) != show(want) {
			t.Errorf("got %s, %v; want %s", show(got), err, show(want))
		}
	})
	tests := []struct {
		name string
		run  func() ([]domain.Change, error)
		err  error
	}{
		{"register twice", func() ([]domain.Change, error) {
			return domain.DecideRegisterUser(userState(t, "zed", nil), pat, domain.RegisterUser{Username: "zed", PasswordHash: "$argon2id$v=19$x"})
		}, domain.ErrUserExists},
		{"grant a held role", func() ([]domain.Change, error) {
			return domain.DecideGrantRole(userState(t, "zed", []string{domain.RoleEditor}), pat, domain.RoleEditor)
		}, domain.ErrHasRole},
		{"grant to nobody", func() ([]domain.Change, error) { return domain.DecideGrantRole(&domain.User{}, pat, domain.RoleEditor) },
			domain.ErrUserMissing},
		{"revoke a role not held", func() ([]domain.Change, error) {
			return domain.DecideRevokeRole(userState(t, "zed", nil), pat, domain.RoleEditor)
		}, domain.ErrLacksRole},
		{"revoke one's own publisher role", func() ([]domain.Change, error) {
			return domain.DecideRevokeRole(userState(t, "pat", []string{domain.RolePublisher}), pat, domain.RolePublisher)
		}, domain.ErrState},
		{"revoke a revoked token", func() ([]domain.Change, error) {
			return domain.DecideRevokeToken(userState(t, "zed", nil, &events.TokenIssued{TokenID: "t1", Name: "a", Hash: sha},
				&events.TokenRevoked{TokenID: "t1"}), pat, "t1")
		}, domain.ErrTokenMissing},
		{"revoke an unknown token", func() ([]domain.Change, error) {
			return domain.DecideRevokeToken(userState(t, "zed", nil), pat, "t9")
		}, domain.ErrTokenMissing},
		{"reissue a revoked token's id", func() ([]domain.Change, error) {
			return domain.DecideIssueToken(userState(t, "zed", nil, &events.TokenIssued{TokenID: "t1", Name: "a", Hash: sha},
				&events.TokenRevoked{TokenID: "t1"}), pat, domain.IssueToken{TokenID: "t1", Name: "b", Hash: sha})
		}, domain.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.run(); !errors.Is(err, tt.err) {
				t.Errorf("error = %v, want %v", err, tt.err)
			}
		})
	}
}
