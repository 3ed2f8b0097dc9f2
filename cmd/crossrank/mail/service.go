package mail

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"maps"
	"net/mail"
	"slices"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/notify"
)

// ConfirmLifetime is how long an address's confirmation link works.
const ConfirmLifetime = 48 * time.Hour

// Sender sends one mail (*Relay).
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Service is the mail settings' side of the mailer: what the pages, the
// API and the command line change (notify.Mail).
type Service struct {
	Book    *Book
	Relay   Sender
	Compose Composer
	// LastSequence is the event stream's last sequence: an address
	// confirmed now is mailed nothing older.
	LastSequence func(ctx context.Context) (uint64, error)
	// Users records the facts of an address in the event log (never the
	// address): confirmed, changed, erased (*handler.Handler).
	Users Users
	Now   func() time.Time
}

// Users is what the service needs of the command handler.
type Users interface {
	User(ctx context.Context, name string) (*domain.User, error)
	RecordMailAddress(ctx context.Context, a domain.Actor, c domain.RecordMailAddress) (handler.Result, error)
}

// record appends the fact of a user's address, as actor.
func (s *Service) record(ctx context.Context, actor domain.Actor, user string, erased bool) error {
	_, err := s.Users.RecordMailAddress(ctx, actor, domain.RecordMailAddress{CommandID: events.NewID(s.now()), User: user, Erased: erased})
	return err
}

var _ notify.Mail = (*Service)(nil)

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// Account returns a user's settings and latest deliveries.
func (s *Service) Account(ctx context.Context, user string) (notify.Account, error) {
	a, _, err := s.Book.account(ctx, user)
	if err != nil {
		return notify.Account{}, err
	}
	out := notify.Account{Address: a.Address, Prefs: prefsOf(a, "en")}
	if a.Pending != nil && a.Pending.Expires.After(s.now()) {
		out.Pending, out.PendingExpires = a.Pending.Address, &a.Pending.Expires
	}
	out.Deliveries, err = s.Book.recent(ctx, user, 20)
	return out, err
}

// prefsOf returns a's choices, the defaults when it has made none.
func prefsOf(a account, lang string) notify.Prefs {
	if a.Prefs.Kinds == nil {
		return notify.DefaultPrefs(lang)
	}
	return a.Prefs
}

// CheckAddress returns the bare address of s, or notify.ErrBadAddress.
func CheckAddress(s string) (string, error) {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || len(s) > 254 {
		return "", notify.ErrBadAddress
	}
	return a.Address, nil
}

// RequestAddress keeps address pending and mails it the confirmation link.
func (s *Service) RequestAddress(ctx context.Context, user, address, lang string) error {
	address, err := CheckAddress(address)
	if err != nil {
		return err
	}
	b := make([]byte, 32)
	rand.Read(b)
	token := base64.RawURLEncoding.EncodeToString(b)
	p := &pending{Address: address, Hash: tokenHash(token), Expires: s.now().Add(ConfirmLifetime)}
	if err := s.Book.update(ctx, user, func(a *account) error {
		a.Pending = p
		if a.Prefs.Kinds == nil {
			a.Prefs = notify.DefaultPrefs(lang)
		}
		return nil
	}); err != nil {
		return err
	}
	m, err := s.Compose.Confirm(address, lang, user, token, p.Expires)
	if err != nil {
		return err
	}
	if err := s.Relay.Send(ctx, m); err != nil {
		return fmt.Errorf("%w: mail relay: %v", events.ErrUnavailable, err)
	}
	return nil
}

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ConfirmAddress makes the pending address the user's. The fact goes to
// the log first, as its user: holding the mailed link says who they are,
// as an invitation's link does.
func (s *Service) ConfirmAddress(ctx context.Context, user, token string) error {
	valid := func(a account) bool {
		p := a.Pending
		return p != nil && p.Expires.After(s.now()) && subtle.ConstantTimeCompare([]byte(p.Hash), []byte(tokenHash(token))) == 1
	}
	if !events.ValidID(user) {
		return notify.ErrBadToken
	}
	a, _, err := s.Book.account(ctx, user)
	if err != nil {
		return err
	}
	if !valid(a) {
		return notify.ErrBadToken
	}
	u, err := s.Users.User(ctx, user)
	if err != nil {
		return err
	}
	actor := u.Actor()
	actor.Via = events.Via{Method: events.ViaInvitation}
	if err := s.record(ctx, actor, user, false); err != nil {
		return err
	}
	from, err := s.LastSequence(ctx)
	if err != nil {
		return err
	}
	return s.Book.update(ctx, user, func(a *account) error {
		if !valid(*a) {
			return notify.ErrBadToken
		}
		a.Address, a.Pending, a.From = a.Pending.Address, nil, from
		return nil
	})
}

// SetConfirmed gives a user a confirmed address at once: the operator's
// door (crossrank user email, PUT /api/v1/users/{name}/mail), as actor,
// an admin. An empty address erases the user's mail settings.
func (s *Service) SetConfirmed(ctx context.Context, actor domain.Actor, user, address string) error {
	if address != "" {
		var err error
		if address, err = CheckAddress(address); err != nil {
			return err
		}
	}
	// The domain says who may, and that the user exists.
	if err := s.record(ctx, actor, user, address == ""); err != nil {
		return err
	}
	if address == "" {
		return s.Book.Erase(ctx, user)
	}
	from, err := s.LastSequence(ctx)
	if err != nil {
		return err
	}
	return s.Book.update(ctx, user, func(a *account) error {
		if a.Address != address {
			a.From = from
		}
		a.Address, a.Pending = address, nil
		if a.Prefs.Kinds == nil {
			a.Prefs = notify.DefaultPrefs("en")
		}
		return nil
	})
}

// SetPrefs replaces a user's choices.
func (s *Service) SetPrefs(ctx context.Context, user string, p notify.Prefs) error {
	if err := p.Check(); err != nil {
		return err
	}
	return s.Book.update(ctx, user, func(a *account) error {
		a.Prefs = p
		return nil
	})
}

// Unsubscribe turns off the kind a token names (for a digest's token, every
// kind that went to the digest). It changes that one choice and leaves the
// others as the user wrote them: filling in the kinds a user's choices do
// not name, at the mode ModeOf gives them, showed a review request's
// unsubscribe as switching three other kinds to the digest.
func (s *Service) Unsubscribe(ctx context.Context, token string) (string, string, error) {
	secret, err := s.Book.secret(ctx)
	if err != nil {
		return "", "", err
	}
	user, kind, err := parseUnsubscribe(secret, token)
	if err != nil {
		return "", "", err
	}
	err = s.Book.update(ctx, user, func(a *account) error {
		p := prefsOf(*a, "en")
		off := []string{kind}
		switch {
		case kind == notify.DigestKind:
			off = nil
			for _, k := range append(slices.Clone(notify.Kinds), notify.Other) {
				if p.ModeOf(k) == notify.ModeDigest {
					off = append(off, k)
				}
			}
		case !slices.Contains(notify.Kinds, kind):
			off = []string{notify.Other} // a kind chosen through Other
		}
		p.Kinds = maps.Clone(p.Kinds)
		for _, k := range off {
			p.Kinds[k] = notify.ModeNone
		}
		a.Prefs = p
		return nil
	})
	return user, kind, err
}
