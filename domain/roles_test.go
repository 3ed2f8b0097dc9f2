package domain_test

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

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
// with ErrRoleRequired before anything else is looked at. The admin (ada)
// lacks every editorial role, so this is also the proof that an admin alone
// cannot open, edit, review, reject or publish; publishers (pat, paula)
// lack the admin role, so they cannot administer users.
func TestRoleRequired(t *testing.T) {
	type command struct {
		name  string
		role  string
		given func() []given
		run   func(w *world, a domain.Actor) error
	}
	errOf := func(_ []domain.Change, err error) error { return err }
	commands := []command{
		{"OpenMethodologyProposal", domain.RoleEditor, func() []given { return nil }, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideOpenProposal(w.ranking, nil, nil, w.prop("m1"), a,
				domain.OpenProposal{ID: "m1", Ranking: rk, Title: "Define", Methodology: true, NewRanking: true}))
		}},
		{"OpenProposal", domain.RoleEditor, defined, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideOpenProposal(w.ranking, w.entry("acme"), w.edition, w.prop("p2"), a,
				domain.OpenProposal{ID: "p2", Ranking: rk, Entry: "acme", Title: "t"}))
		}},
		{"AddEvidence", domain.RoleEditor, p1Draft, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideAddEvidence(w.prop("p1"), a, domain.AddEvidence{Claim: events.Text{En: "c"}, SourceName: "s", Excerpt: "x", ObservedOn: "2026-01-01"}))
		}},
		{"RemoveEvidence", domain.RoleEditor, p1Draft, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideRemoveEvidence(w.prop("p1"), a, "e2"))
		}},
		{"ProposeScore", domain.RoleEditor, p1Draft, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideProposeScore(w.ranking, w.edition, w.prop("p1"), a,
				domain.ProposeScore{Criterion: "perf", To: 7, Rationale: events.Text{En: "r"}, Evidence: []string{"e1"}}))
		}},
		{"ProposeAttribute", domain.RoleEditor, p1Draft, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideProposeAttribute(w.ranking, w.edition, w.prop("p1"), a,
				domain.ProposeAttribute{Attribute: "root", To: []string{"no"}, Rationale: events.Text{En: "r"}, Evidence: []string{"e1"}}))
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
				return errOf(domain.DecideDismissVeto(w.ranking, w.edition, w.prop("p1"), a,
					domain.DismissVeto{Proposal: "p1", Voter: "rosa", Reason: "reason"}))
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
		{"RegisterUser", domain.RoleAdmin, func() []given { return nil }, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideRegisterUser(&domain.User{}, a, domain.RegisterUser{Username: "newbie", PasswordHash: "$argon2id$v=19$x"}))
		}},
		{"GrantRole", domain.RoleAdmin, func() []given { return nil }, func(w *world, a domain.Actor) error {
			return errOf(domain.DecideGrantRole(userState(w.t, "zed", nil), a, domain.RoleEditor))
		}},
		{"RevokeRole", domain.RoleAdmin, func() []given { return nil }, func(w *world, a domain.Actor) error {
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

// TestSelfServiceCommands: who may change a user's password and tokens.
// The user themself needs no role; an admin may reset a password and
// revoke a token, but a token is only ever issued by its own user (or the
// command line): not by an admin, not by a publisher.
func TestSelfServiceCommands(t *testing.T) {
	zed := func(t *testing.T) *domain.User {
		return userState(t, "zed", nil, &events.TokenIssued{TokenID: "t1", Name: "laptop", Hash: sha})
	}
	self := domain.Actor{Name: "zed"}
	commands := []struct {
		name    string
		run     func(u *domain.User, a domain.Actor) ([]domain.Change, error)
		allowed []string // besides the user themself
		refused error    // what everyone else gets
	}{
		{"ChangePassword", func(u *domain.User, a domain.Actor) ([]domain.Change, error) {
			return domain.DecideChangePassword(u, a, "$argon2id$v=19$y")
		}, []string{"system"}, domain.ErrForbidden}, // an admin resets instead (ResetPassword)
		{"IssueToken", func(u *domain.User, a domain.Actor) ([]domain.Change, error) {
			return domain.DecideIssueToken(u, a, domain.IssueToken{TokenID: "t2", Name: "ci", Hash: sha})
		}, []string{"system"}, domain.ErrTokenNotOwn},
		{"RevokeToken", func(u *domain.User, a domain.Actor) ([]domain.Change, error) {
			return domain.DecideRevokeToken(u, a, "t1")
		}, []string{"ada", "system"}, domain.ErrRoleRequired},
	}
	as := func(name string) domain.Actor {
		if name == "system" {
			return domain.System()
		}
		return actor(name)
	}
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			if _, err := c.run(zed(t), self); err != nil {
				t.Errorf("as the user: %v", err)
			}
			for _, who := range c.allowed {
				if _, err := c.run(zed(t), as(who)); err != nil {
					t.Errorf("as %s: %v", who, err)
				}
			}
			for _, who := range []string{"pat", "paula", "alice", "rita", "nobody", "ada", ""} {
				if slices.Contains(c.allowed, who) {
					continue
				}
				a := domain.Actor{Roles: domain.Roles} // nameless, every role
				if who != "" {
					a = actor(who)
				}
				if _, err := c.run(zed(t), a); !errors.Is(err, c.refused) {
					t.Errorf("as %q: %v, want %v", who, err, c.refused)
				}
			}
		})
	}
}

// TestDecideUserAccounts: given a user's events, when an account command
// runs, then these events (or this error).
func TestDecideUserAccounts(t *testing.T) {
	const newHash = "$argon2id$v=19$new"
	issued := func(id string) any { return &events.TokenIssued{TokenID: id, Name: "script " + id, Hash: sha} }
	revoked := func(id string) any { return &events.TokenRevoked{TokenID: id} }
	user := func(cs ...any) []domain.Change {
		var out []domain.Change
		for _, d := range cs {
			out = append(out, domain.Change{Aggregate: domain.UserID("zed"), Data: d})
		}
		return out
	}
	tests := []struct {
		name  string
		given []any // zed's events after registering with the reviewer role
		when  func(u *domain.User) ([]domain.Change, error)
		want  []domain.Change
		err   error
	}{
		{"an admin cannot choose another's password", []any{issued("t1")},
			func(u *domain.User) ([]domain.Change, error) {
				return domain.DecideChangePassword(u, actor("ada"), newHash)
			},
			nil, domain.ErrPasswordNotOwn},
		{"an admin's reset revokes every live token and the feed token, and issues a link", []any{issued("t3"), issued("t1"),
			issued("t2"), revoked("t2"), &events.FeedTokenSet{Hash: sha}},
			func(u *domain.User) ([]domain.Change, error) {
				return domain.DecideResetPassword(u, actor("ada"), domain.ResetPassword{LinkHash: sha}, t0)
			},
			user(&events.PasswordReset{RevokedTokens: []string{"t1", "t3"}, FeedTokenRevoked: true, LinkHash: sha,
				ExpiresAt: t0.Add(domain.InvitationTTL).UTC().Format(time.RFC3339)}), nil},
		{"the command line's reset does too", []any{issued("t1")},
			func(u *domain.User) ([]domain.Change, error) {
				return domain.DecideChangePassword(u, domain.System(), newHash)
			},
			user(&events.PasswordChanged{PasswordHash: newHash, RevokedTokens: []string{"t1"}}), nil},
		{"a user changing their own password keeps their tokens", []any{issued("t1")},
			func(u *domain.User) ([]domain.Change, error) {
				return domain.DecideChangePassword(u, domain.Actor{Name: "zed"}, newHash)
			},
			user(&events.PasswordChanged{PasswordHash: newHash}), nil},
		{"a publisher cannot reset another's password", []any{issued("t1")},
			func(u *domain.User) ([]domain.Change, error) {
				return domain.DecideChangePassword(u, actor("pat"), newHash)
			},
			nil, domain.ErrRoleRequired},
		{"a publisher cannot issue a token for a reviewer", nil,
			func(u *domain.User) ([]domain.Change, error) {
				return domain.DecideIssueToken(u, actor("pat"), domain.IssueToken{TokenID: "t9", Name: "vote", Hash: sha})
			}, nil, domain.ErrTokenNotOwn},
		{"an admin cannot issue a token for another user", nil,
			func(u *domain.User) ([]domain.Change, error) {
				return domain.DecideIssueToken(u, actor("ada"), domain.IssueToken{TokenID: "t9", Name: "vote", Hash: sha})
			}, nil, domain.ErrTokenNotOwn},
		{"the command line issues a token for a user", nil,
			func(u *domain.User) ([]domain.Change, error) {
				return domain.DecideIssueToken(u, domain.System(), domain.IssueToken{TokenID: "t9", Name: "cli", Hash: sha})
			}, user(&events.TokenIssued{TokenID: "t9", Name: "cli", Hash: sha}), nil},
		{"an admin grants a role", nil,
			func(u *domain.User) ([]domain.Change, error) {
				return domain.DecideGrantRole(u, actor("ada"), domain.RolePublisher)
			},
			user(&events.RoleGranted{Role: domain.RolePublisher}), nil},
		{"an admin revokes a role", nil,
			func(u *domain.User) ([]domain.Change, error) {
				return domain.DecideRevokeRole(u, actor("ada"), domain.RoleReviewer)
			},
			user(&events.RoleRevoked{Role: domain.RoleReviewer}), nil},
		{"an admin revokes another's token", []any{issued("t1")},
			func(u *domain.User) ([]domain.Change, error) { return domain.DecideRevokeToken(u, actor("ada"), "t1") },
			user(revoked("t1")), nil},
		{"a publisher cannot grant a role", nil,
			func(u *domain.User) ([]domain.Change, error) {
				return domain.DecideGrantRole(u, actor("pat"), domain.RoleEditor)
			},
			nil, domain.ErrRoleRequired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.when(userState(t, "zed", []string{domain.RoleReviewer}, tt.given...))
			if tt.err != nil {
				if !errors.Is(err, tt.err) || got != nil {
					t.Fatalf("got %s, %v; want no events and %v", show(got), err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %s, %v\nwant %s", show(got), err, show(tt.want))
			}
		})
	}
}

func TestDecideUsers(t *testing.T) {
	ada := actor("ada") // the admin
	t.Run("register", func(t *testing.T) {
		got, err := domain.DecideRegisterUser(&domain.User{}, domain.System(), domain.RegisterUser{Username: "zed", DisplayName: "Zed",
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
			return domain.DecideRegisterUser(userState(t, "zed", nil), domain.System(), domain.RegisterUser{Username: "zed", PasswordHash: "$argon2id$v=19$x"})
		}, domain.ErrUserExists},
		{"an admin registers with a password", func() ([]domain.Change, error) {
			return domain.DecideRegisterUser(&domain.User{}, ada, domain.RegisterUser{Username: "zed", PasswordHash: "$argon2id$v=19$x"})
		}, domain.ErrPasswordNotOwn},
		{"grant a held role", func() ([]domain.Change, error) {
			return domain.DecideGrantRole(userState(t, "zed", []string{domain.RoleEditor}), ada, domain.RoleEditor)
		}, domain.ErrHasRole},
		{"grant to nobody", func() ([]domain.Change, error) { return domain.DecideGrantRole(&domain.User{}, ada, domain.RoleEditor) },
			domain.ErrUserMissing},
		{"revoke a role not held", func() ([]domain.Change, error) {
			return domain.DecideRevokeRole(userState(t, "zed", nil), ada, domain.RoleEditor)
		}, domain.ErrLacksRole},
		{"revoke one's own admin role", func() ([]domain.Change, error) {
			return domain.DecideRevokeRole(userState(t, "ada", []string{domain.RoleAdmin}), ada, domain.RoleAdmin)
		}, domain.ErrOwnAdminRole},
		{"grant oneself a role", func() ([]domain.Change, error) {
			return domain.DecideGrantRole(userState(t, "ada", []string{domain.RoleAdmin}), ada, domain.RolePublisher)
		}, domain.ErrSelfGrant},
		{"revoke a revoked token", func() ([]domain.Change, error) {
			return domain.DecideRevokeToken(userState(t, "zed", nil, &events.TokenIssued{TokenID: "t1", Name: "a", Hash: sha},
				&events.TokenRevoked{TokenID: "t1"}), ada, "t1")
		}, domain.ErrTokenMissing},
		{"revoke an unknown token", func() ([]domain.Change, error) {
			return domain.DecideRevokeToken(userState(t, "zed", nil), ada, "t9")
		}, domain.ErrTokenMissing},
		{"reissue a revoked token's id", func() ([]domain.Change, error) {
			return domain.DecideIssueToken(userState(t, "zed", nil, &events.TokenIssued{TokenID: "t1", Name: "a", Hash: sha},
				&events.TokenRevoked{TokenID: "t1"}), domain.Actor{Name: "zed"}, domain.IssueToken{TokenID: "t1", Name: "b", Hash: sha})
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
