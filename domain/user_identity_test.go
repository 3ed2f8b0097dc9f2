package domain_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// TestBindIdentity: an invitation is accepted by signing in with the
// provider on the same terms as choosing a password on it (once, within
// 72 hours, the latest link only); the account then signs in as the
// provider's iss+sub, keeps its invited roles, is no longer pending — and
// a reset drops the binding with the password.
func TestBindIdentity(t *testing.T) {
	const iss, sub = "https://id.example.org", "248289761001"
	other := "aa" + sha[2:]
	bind := func(u *domain.User, h, iss, sub string, at time.Time) ([]domain.Change, error) {
		return domain.DecideBindIdentity(u, domain.BindIdentity{User: "zed", LinkHash: h, Issuer: iss, Subject: sub}, at)
	}
	tests := []struct {
		name string
		user *domain.User
		hash string
		iss  string
		sub  string
		at   time.Time
		want error
	}{
		{"the link, in time", invited(t, sha), sha, iss, sub, t0.Add(time.Hour), nil},
		{"another link", invited(t, sha), other, iss, sub, t0, domain.ErrInvitationInvalid},
		{"expired", invited(t, sha), sha, iss, sub, t0.Add(domain.InvitationTTL), domain.ErrInvitationInvalid},
		{"revoked", invited(t, sha, &events.InvitationRevoked{}), sha, iss, sub, t0, domain.ErrInvitationInvalid},
		{"used for a password", invited(t, sha, &events.InvitationAccepted{PasswordHash: "$argon2id$x"}), sha, iss, sub, t0, domain.ErrInvitationInvalid},
		{"used for a binding", invited(t, sha, &events.IdentityBound{Issuer: iss, Subject: sub}), sha, iss, sub, t0, domain.ErrInvitationInvalid},
		{"no account", &domain.User{}, sha, iss, sub, t0, domain.ErrInvitationInvalid},
		{"no subject", invited(t, sha), sha, iss, "", t0, domain.ErrInvalid},
		{"no issuer", invited(t, sha), sha, "", sub, t0, domain.ErrInvalid},
		{"subject too long", invited(t, sha), sha, iss, strings.Repeat("s", 256), t0, domain.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := bind(tt.user, tt.hash, tt.iss, tt.sub, tt.at)
			if !errors.Is(err, tt.want) || (err == nil) != (tt.want == nil) {
				t.Fatalf("got %s, %v; want %v", show(got), err, tt.want)
			}
			if err == nil {
				if b, ok := got[0].Data.(*events.IdentityBound); !ok || b.Issuer != iss || b.Subject != sub {
					t.Errorf("got %s", show(got))
				}
			}
		})
	}

	u := invited(t, sha, &events.IdentityBound{Issuer: iss, Subject: sub})
	if u.Pending() || !u.Identity.Is(iss, sub) || u.Identity.Is(iss, sub+"x") || u.Invitation != nil {
		t.Errorf("bound account: pending %v, identity %+v, invitation %+v", u.Pending(), u.Identity, u.Invitation)
	}
	if len(u.Roles) != 1 || u.Roles[0] != domain.RoleReviewer {
		t.Errorf("roles %v, want the invitation's", u.Roles)
	}
	if _, err := domain.DecideIssueToken(u, domain.System(), domain.IssueToken{TokenID: "t1", Name: "ci", Hash: sha}); err != nil {
		t.Errorf("a token for a bound account: %v", err)
	}
	u = invited(t, sha, &events.IdentityBound{Issuer: iss, Subject: sub}, &events.PasswordReset{LinkHash: other,
		ExpiresAt: t0.Add(domain.InvitationTTL).Format(time.RFC3339)})
	if u.Identity != nil || !u.Pending() {
		t.Errorf("after a reset: identity %+v, pending %v", u.Identity, u.Pending())
	}
	if a := domain.OIDCActor("zed", iss); a.Via.String() != "oidc;iss=https%3A%2F%2Fid.example.org" {
		t.Errorf("the binding's actor signs in via %q", a.Via.String())
	}
}
