// Package notify holds what a user chooses about mail: their address (set,
// then confirmed by a link), which inbox items come at once, in a daily
// digest or not at all, and the state of each mail sent. It serves the
// desk's mail page, its JSON door and the two addresses a mail links to
// (confirming an address, the one-click unsubscribe). The mailer itself
// (cmd/crossrank/mail) implements Mail.
package notify

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
)

// Mode is how the items of one inbox kind reach a user by mail.
type Mode string

// The modes: at once, in the daily digest, or not by mail.
const (
	ModeInstant Mode = "instant"
	ModeDigest  Mode = "digest"
	ModeNone    Mode = "none"
)

// Kinds are the inbox kinds a user chooses a mode for one by one; every
// other kind (those added later too) follows the mode of Other.
var Kinds = []string{"review_requested", "veto", "schedule_failed", "source_changed", "review_overdue"}

// Other is the key of Prefs.Kinds for every kind Kinds does not list.
const Other = "other"

// DigestKind is the kind an unsubscribe link of a digest names: it turns
// every kind that went to the digest off.
const DigestKind = "digest"

// Prefs is what a user chose. Lang is "en" or "zh"; TimeZone an IANA name.
type Prefs struct {
	Kinds      map[string]Mode `json:"kinds"`
	DigestHour int             `json:"digest_hour"`
	TimeZone   string          `json:"time_zone"`
	Lang       string          `json:"lang"`
}

// DefaultPrefs is what a user has chosen before they choose: what is asked
// of them and what went wrong at once, the rest in a digest at 8 in the
// morning, UTC.
func DefaultPrefs(lang string) Prefs {
	if lang != "zh" {
		lang = "en"
	}
	return Prefs{Kinds: map[string]Mode{"review_requested": ModeInstant, "veto": ModeInstant,
		"schedule_failed": ModeInstant, "review_overdue": ModeInstant, "source_changed": ModeDigest, Other: ModeDigest},
		DigestHour: 8, TimeZone: "UTC", Lang: lang}
}

// ModeOf returns the mode of kind: its own, else Other's, else the digest.
// A kind the mailer does not know yet is mailed in the digest.
func (p Prefs) ModeOf(kind string) Mode {
	if !slices.Contains(Kinds, kind) {
		kind = Other
	}
	if m, ok := p.Kinds[kind]; ok {
		return m
	}
	return ModeDigest
}

// Location returns the time zone of the digest (UTC when unknown).
func (p Prefs) Location() *time.Location {
	if loc, err := time.LoadLocation(p.TimeZone); err == nil {
		return loc
	}
	return time.UTC
}

// Check reports the first field of p that is not valid.
func (p Prefs) Check() error {
	for k, m := range p.Kinds {
		if k != Other && !slices.Contains(Kinds, k) {
			return &httpx.BadField{Field: "kinds", Code: "field.inbox_kind", Args: domain.Args{"value": k}}
		}
		if m != ModeInstant && m != ModeDigest && m != ModeNone {
			return &httpx.BadField{Field: "kinds", Code: "mail.bad_mode", Args: domain.Args{"value": string(m)}}
		}
	}
	if p.DigestHour < 0 || p.DigestHour > 23 {
		return &httpx.BadField{Field: "digest_hour", Code: "mail.bad_hour"}
	}
	if _, err := time.LoadLocation(p.TimeZone); err != nil || p.TimeZone == "" || p.TimeZone == "Local" {
		return &httpx.BadField{Field: "time_zone", Code: "mail.bad_time_zone", Args: domain.Args{"value": p.TimeZone}}
	}
	if p.Lang != "en" && p.Lang != "zh" {
		return &httpx.BadField{Field: "lang", Code: "mail.bad_lang"}
	}
	return nil
}

// NextDigest returns the first digest moment of p after t.
func (p Prefs) NextDigest(t time.Time) time.Time {
	loc := p.Location()
	l := t.In(loc)
	at := time.Date(l.Year(), l.Month(), l.Day(), p.DigestHour, 0, 0, 0, loc)
	for !at.After(t) {
		at = time.Date(at.Year(), at.Month(), at.Day()+1, p.DigestHour, 0, 0, 0, loc)
	}
	return at
}

// Account is a user's mail settings as they see them. Address is the
// confirmed address ("": none); Pending the one awaiting its link.
type Account struct {
	Address        string     `json:"address"`
	Pending        string     `json:"pending"`
	PendingExpires *time.Time `json:"pending_expires,omitempty"`
	Prefs          Prefs      `json:"prefs"`
	Deliveries     []Delivery `json:"deliveries"`
}

// The states of a delivery.
const (
	StatePending = "pending" // waiting to be sent (at once, or in the next digest)
	StateSent    = "sent"
	StateFailed  = "failed" // the last attempt failed; Error says why; it is retried
)

// Delivery is the mail of one inbox item: Seq and Kind name the item.
type Delivery struct {
	Seq      uint64    `json:"seq"`
	Kind     string    `json:"kind"`
	Mode     Mode      `json:"mode"`
	State    string    `json:"state"`
	Error    string    `json:"error,omitempty"`
	Attempts int       `json:"attempts"`
	At       time.Time `json:"at"`
}

// Mail is what the pages need of the mailer.
type Mail interface {
	// Account returns the user's settings and their latest deliveries.
	Account(ctx context.Context, user string) (Account, error)
	// RequestAddress sets the address awaiting confirmation and mails it
	// the link; lang is the language of that mail.
	RequestAddress(ctx context.Context, user, address, lang string) error
	// ConfirmAddress confirms the pending address whose link carries token.
	ConfirmAddress(ctx context.Context, user, token string) error
	// SetConfirmed gives a user a confirmed address at once, as the
	// operator may; "" erases the user's address and choices.
	SetConfirmed(ctx context.Context, actor domain.Actor, user, address string) error
	// SetPrefs replaces the user's preferences.
	SetPrefs(ctx context.Context, user string, p Prefs) error
	// Unsubscribe turns off what the token of a mail's unsubscribe link
	// names, and returns whose and which kind.
	Unsubscribe(ctx context.Context, token string) (user, kind string, err error)
}

// Errors of the mail settings.
var (
	ErrBadToken = httpx.NewError("mail.bad_token", "the link is wrong or has expired", httpx.ErrMalformed)
	ErrMailOff  = httpx.NewError("mail.off", "this server sends no mail (no --smtp-url)", domain.ErrNotFound)
	// ErrAddressNeedsSession refuses a change of the mail address signed
	// in by an API token: the address receives the links that reset
	// access and the mails that tell of changes, so a stolen token must
	// not be able to redirect them. The person changes it signed in with a
	// session (the account page, or the API with the session cookie).
	ErrAddressNeedsSession = httpx.NewError("account.mail_needs_session",
		"the mail address is changed signed in with a session, not with an API token", domain.ErrForbidden)
	// ErrBadAddress is an address that is not one.
	ErrBadAddress = &httpx.BadField{Field: "address", Code: "mail.bad_address"}
)

// IsBadToken reports whether err is a wrong or expired link.
func IsBadToken(err error) bool { return errors.Is(err, ErrBadToken) }
