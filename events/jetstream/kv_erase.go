package jetstream

import (
	"context"
	"errors"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ContactsBucket is the bucket of readers' contact addresses, kept apart
// from the event log (which is never changed) so they can expire and be
// erased. A report's addresses are the keys "<report id>.<n>": a report
// sent again with another address keeps both.
const ContactsBucket = "CROSSRANK_REPORT_CONTACTS"

// Erase purges every key of the bucket under prefix ("<prefix>.*") and
// returns how many there were. A purge keeps no earlier value.
func (k *KV) Erase(ctx context.Context, prefix string) (int, error) {
	if err := connected(k.nc); err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, k.timeout)
	defer cancel()
	lister, err := k.kv.ListKeysFiltered(ctx, prefix+".*")
	if err != nil {
		return 0, kvErr("list", err)
	}
	var keys []string
	for key := range lister.Keys() {
		keys = append(keys, key)
	}
	// The lister has ended by now: Stop only reports its subscription gone.
	if err := lister.Stop(); err != nil && !errors.Is(err, jetstream.ErrNoKeysFound) && !errors.Is(err, nats.ErrBadSubscription) {
		return 0, kvErr("list", err)
	}
	for _, key := range keys {
		if err := k.kv.Purge(ctx, key); err != nil {
			return 0, kvErr("purge", err)
		}
	}
	return len(keys), nil
}
