package domain_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// invited evolves a user from an invitation issued at t0 with link hash h,
// then the more events.
func invited(t testing.TB, h string, more ...any) *domain.User {
	t.Helper()
	u := &domain.User{}
	all := append([]any{&events.UserInvited{Username: "zed", DisplayName: "Zed", Roles: []string{domain.RoleReviewer},
		LinkHash: h, ExpiresAt: t0.Add(domain.InvitationTTL).Format(time.RFC3339)}}, more...)
	for i, d := range all {
		e, err := events.New("inv-"+string(rune('a'+i)), t0, "ada", "zed", d)
		if err != nil {
			t.Fatal(err)
		}
		e.Sequence = uint64(i + 1)
		u.Evolve(e)
	}
	return u
}

// TestInvitation: an admin's new user has no password until its owner
// chooses one on the link, which works once, within 72 hours, and not
// after it is revoked or replaced by a reset.
func TestInvitation(t *testing.T) {
	const link, pw = sha, "$argon2id$v=19$mine"
	other := "aa" + sha[2:]
	accept := func(u *domain.User, h string, at time.Time) error {
		_, err := domain.DecideAcceptInvitation(u, domain.AcceptInvitation{User: "zed", LinkHash: h, PasswordHash: pw}, at)
		return err
	}
	got, err := domain.DecideInviteUser(&domain.User{}, actor("ada"), domain.InviteUser{Username: "zed", DisplayName: "Zed",
		Roles: []string{domain.RoleReviewer}, LinkHash: link}, t0)
	if err != nil || len(got) != 1 {
		t.Fatalf("invite: %s, %v", show(got), err)
	}
	if inv := got[0].Data.(*events.UserInvited); inv.ExpiresAt != "2026-03-05T09:00:00Z" || inv.LinkHash != link {
		t.Errorf("invitation %+v", inv)
	}
	if _, err := domain.DecideInviteUser(&domain.User{}, actor("pat"), domain.InviteUser{Username: "zed", LinkHash: link}, t0); !errors.Is(err, domain.ErrRoleRequired) {
		t.Errorf("a publisher invites: %v", err)
	}

	u := invited(t, link)
	if !u.Pending() || u.PasswordHash != "" {
		t.Fatal("an invited account has a password")
	}
	if _, err := domain.DecideIssueToken(u, domain.System(), domain.IssueToken{TokenID: "t1", Name: "ci", Hash: sha}); !errors.Is(err, domain.ErrAccountPending) {
		t.Errorf("a token for a pending account: %v", err)
	}
	for name, tc := range map[string]struct {
		u    *domain.User
		hash string
		at   time.Time
	}{
		"wrong link":              {u, other, t0},
		"at the expiry":           {u, link, t0.Add(domain.InvitationTTL)},
		"used":                    {invited(t, link, &events.InvitationAccepted{PasswordHash: pw}), link, t0},
		"revoked":                 {invited(t, link, &events.InvitationRevoked{}), link, t0},
		"replaced by a reset":     {invited(t, link, &events.PasswordReset{LinkHash: other, ExpiresAt: "2026-03-06T09:00:00Z"}), link, t0},
		"set by the command line": {invited(t, link, &events.PasswordChanged{PasswordHash: pw}), link, t0},
	} {
		if err := accept(tc.u, tc.hash, tc.at); !errors.Is(err, domain.ErrInvitationInvalid) {
			t.Errorf("%s: %v, want ErrInvitationInvalid", name, err)
		}
	}
	if err := accept(u, link, t0.Add(domain.InvitationTTL-time.Second)); err != nil {
		t.Errorf("just before the expiry: %v", err)
	}
	if err := accept(invited(t, link, &events.PasswordReset{LinkHash: other, ExpiresAt: "2026-03-06T09:00:00Z"}), other, t0); err != nil {
		t.Errorf("the reset's new link: %v", err)
	}
	if _, err := domain.DecideAcceptInvitation(u, domain.AcceptInvitation{LinkHash: link, PasswordHash: "hunter2"}, t0); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("a clear password: %v", err)
	}

	// Revoking needs a pending link and an admin.
	if _, err := domain.DecideRevokeInvitation(u, actor("ada")); err != nil {
		t.Errorf("revoke: %v", err)
	}
	if _, err := domain.DecideRevokeInvitation(u, actor("pat")); !errors.Is(err, domain.ErrRoleRequired) {
		t.Errorf("a publisher revokes: %v", err)
	}
	if _, err := domain.DecideRevokeInvitation(invited(t, link, &events.InvitationAccepted{PasswordHash: pw}), actor("ada")); !errors.Is(err, domain.ErrNoInvitation) {
		t.Errorf("revoke a used link: %v", err)
	}
	// A reset: not one's own, not by a publisher; the password stops working.
	ada := userState(t, "ada", []string{domain.RoleAdmin})
	if _, err := domain.DecideResetPassword(ada, actor("ada"), domain.ResetPassword{User: "ada", LinkHash: link}, t0); !errors.Is(err, domain.ErrOwnPasswordReset) {
		t.Errorf("reset one's own: %v", err)
	}
	zed := userState(t, "zed", nil)
	if _, err := domain.DecideResetPassword(zed, actor("pat"), domain.ResetPassword{LinkHash: link}, t0); !errors.Is(err, domain.ErrRoleRequired) {
		t.Errorf("a publisher resets: %v", err)
	}
	reset := userState(t, "zed", nil, &events.PasswordReset{LinkHash: link, ExpiresAt: "2026-03-05T09:00:00Z"})
	if !reset.Pending() || !strings.HasPrefix(zed.PasswordHash, "$argon2id$") {
		t.Errorf("after a reset: pending %v", reset.Pending())
	}
}
