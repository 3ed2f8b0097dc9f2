package mail

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/web/notify"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The buckets of the mailer (see the package comment).
const (
	AccountsBucket   = "CROSSRANK_MAIL"
	DeliveriesBucket = "CROSSRANK_MAIL_DELIVERIES"
)

// DeliveryLifetime is how long the state of one mail stays visible.
const DeliveryLifetime = 30 * 24 * time.Hour

// account is what the bucket holds of one user. From is the stream
// sequence at which the address was confirmed: nothing older is mailed.
// DigestUpTo is the sequence the last digest covered.
type account struct {
	Address    string       `json:"address,omitempty"`
	Pending    *pending     `json:"pending,omitempty"`
	Prefs      notify.Prefs `json:"prefs"`
	From       uint64       `json:"from,omitempty"`
	DigestUpTo uint64       `json:"digest_upto,omitempty"`
}

// pending is an address awaiting the link mailed to it; Hash is the
// SHA-256 of the link's token.
type pending struct {
	Address string    `json:"address"`
	Hash    string    `json:"hash"`
	Expires time.Time `json:"expires"`
}

// wantsDigest reports whether some kind goes to a digest.
func (a account) wantsDigest() bool {
	if a.Address == "" {
		return false
	}
	for _, k := range append(slices.Clone(notify.Kinds), notify.Other) {
		if a.Prefs.ModeOf(k) == notify.ModeDigest {
			return true
		}
	}
	return false
}

// Book is the mailer's two buckets.
type Book struct {
	accounts   jetstream.KeyValue
	deliveries jetstream.KeyValue
}

// OpenBook creates the buckets or opens them.
func OpenBook(ctx context.Context, nc *nats.Conn, replicas int) (*Book, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	open := func(bucket string, ttl time.Duration) (jetstream.KeyValue, error) {
		kv, err := js.KeyValue(ctx, bucket)
		if errors.Is(err, jetstream.ErrBucketNotFound) {
			kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bucket, Description: "Crossrank: " + bucket,
				TTL: ttl, History: 1, Storage: jetstream.FileStorage, Replicas: max(replicas, 1)})
			if errors.Is(err, jetstream.ErrBucketExists) { // another replica was first
				kv, err = js.KeyValue(ctx, bucket)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("mail: bucket %s: %w", bucket, err)
		}
		return kv, nil
	}
	b := &Book{}
	if b.accounts, err = open(AccountsBucket, 0); err != nil {
		return nil, err
	}
	if b.deliveries, err = open(DeliveriesBucket, DeliveryLifetime); err != nil {
		return nil, err
	}
	return b, nil
}

func accountKey(user string) string { return "account." + user }

// account returns a user's account (the zero account, with revision 0,
// when there is none).
func (b *Book) account(ctx context.Context, user string) (account, uint64, error) {
	var a account
	e, err := b.accounts.Get(ctx, accountKey(user))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return a, 0, nil
	}
	if err != nil {
		return a, 0, err
	}
	if err := json.Unmarshal(e.Value(), &a); err != nil {
		return a, 0, fmt.Errorf("mail: account %s: %w", user, err)
	}
	return a, e.Revision(), nil
}

// update changes a user's account with fn, again on a concurrent change.
func (b *Book) update(ctx context.Context, user string, fn func(*account) error) error {
	for {
		a, rev, err := b.account(ctx, user)
		if err != nil {
			return err
		}
		if err := fn(&a); err != nil {
			return err
		}
		v, err := json.Marshal(a)
		if err != nil {
			return err
		}
		if rev == 0 {
			_, err = b.accounts.Create(ctx, accountKey(user), v)
		} else {
			_, err = b.accounts.Update(ctx, accountKey(user), v, rev)
		}
		if errors.Is(err, jetstream.ErrKeyExists) || isWrongSequence(err) {
			continue
		}
		return err
	}
}

func isWrongSequence(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence
}

// Erase forgets a user's address, pending address and choices.
func (b *Book) Erase(ctx context.Context, user string) error {
	if err := b.accounts.Purge(ctx, accountKey(user)); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		return err
	}
	return nil
}

func deliveryKey(user string, seq uint64, kind string) string {
	return "delivery." + user + "." + strconv.FormatUint(seq, 10) + "." + kind
}

// delivery returns the state of the mail of one inbox item.
func (b *Book) delivery(ctx context.Context, user string, seq uint64, kind string) (notify.Delivery, bool, error) {
	var d notify.Delivery
	e, err := b.deliveries.Get(ctx, deliveryKey(user, seq, kind))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return d, false, nil
	}
	if err != nil {
		return d, false, err
	}
	return d, true, json.Unmarshal(e.Value(), &d)
}

func (b *Book) putDelivery(ctx context.Context, user string, d notify.Delivery) error {
	v, err := json.Marshal(d)
	if err != nil {
		return err
	}
	_, err = b.deliveries.Put(ctx, deliveryKey(user, d.Seq, d.Kind), v)
	return err
}

// recent returns a user's latest n deliveries, newest first.
func (b *Book) recent(ctx context.Context, user string, n int) ([]notify.Delivery, error) {
	lister, err := b.deliveries.ListKeysFiltered(ctx, "delivery."+user+".>")
	if err != nil {
		return nil, err
	}
	type ref struct {
		key string
		seq uint64
	}
	var refs []ref
	for key := range lister.Keys() {
		parts := strings.Split(key, ".")
		if len(parts) == 4 {
			seq, _ := strconv.ParseUint(parts[2], 10, 64)
			refs = append(refs, ref{key, seq})
		}
	}
	slices.SortFunc(refs, func(a, b ref) int {
		if c := cmpSeq(b.seq, a.seq); c != 0 {
			return c
		}
		return strings.Compare(b.key, a.key)
	})
	out := []notify.Delivery{}
	for _, r := range refs[:min(n, len(refs))] {
		e, err := b.deliveries.Get(ctx, r.key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue // expired since it was listed
		}
		if err != nil {
			return nil, err
		}
		var d notify.Delivery
		if err := json.Unmarshal(e.Value(), &d); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

func cmpSeq(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// secret returns the key that signs unsubscribe links, made by the first
// replica that asks.
func (b *Book) secret(ctx context.Context) ([]byte, error) {
	for {
		e, err := b.accounts.Get(ctx, "secret")
		if err == nil {
			return e.Value(), nil
		}
		if !errors.Is(err, jetstream.ErrKeyNotFound) {
			return nil, err
		}
		key := make([]byte, 32)
		rand.Read(key)
		if _, err := b.accounts.Create(ctx, "secret", key); err != nil && !errors.Is(err, jetstream.ErrKeyExists) {
			return nil, err
		}
	}
}
