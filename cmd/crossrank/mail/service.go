package mail

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/mail"
	"slices"
	"time"

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
	Now          func() time.Time
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

// ConfirmAddress makes the pending address the user's.
func (s *Service) ConfirmAddress(ctx context.Context, user, token string) error {
	from, err := s.LastSequence(ctx)
	if err != nil {
		return err
	}
	return s.Book.update(ctx, user, func(a *account) error {
		p := a.Pending
		if p == nil || !p.Expires.After(s.now()) || subtle.ConstantTimeCompare([]byte(p.Hash), []byte(tokenHash(token))) != 1 {
			return notify.ErrBadToken
		}
		a.Address, a.Pending, a.From = p.Address, nil, from
		return nil
	})
}

// SetConfirmed gives a user a confirmed address at once: the operator's
// door (crossrank user email). An empty address erases the user's mail
// settings.
func (s *Service) SetConfirmed(ctx context.Context, user, address string) error {
	if address == "" {
		return s.Book.Erase(ctx, user)
	}
	address, err := CheckAddress(address)
	if err != nil {
		return err
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
// kind that went to the digest).
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
		kinds := map[string]notify.Mode{}
		for _, k := range append(slices.Clone(notify.Kinds), notify.Other) {
			kinds[k] = p.ModeOf(k)
			switch {
			case kind == notify.DigestKind && kinds[k] == notify.ModeDigest,
				kind == k, kind != notify.DigestKind && k == notify.Other && !slices.Contains(notify.Kinds, kind):
				kinds[k] = notify.ModeNone
			}
		}
		p.Kinds = kinds
		a.Prefs = p
		return nil
	})
	return user, kind, err
}
