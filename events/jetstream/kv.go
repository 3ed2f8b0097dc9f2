package jetstream

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// KV is a JetStream key-value bucket, for state that is not part of the
// event record but must be shared by replicas and outlive a restart: the
// desk's sign-in sessions. Entries expire a fixed time after their last
// write.
type KV struct {
	nc      *nats.Conn
	kv      jetstream.KeyValue
	timeout time.Duration
}

// SessionsBucket is the bucket of the desk's sign-in sessions.
const SessionsBucket = "CROSSRANK_SESSIONS"

// OpenKV creates bucket or opens it. Replicas follow the stream's rule:
// an existing bucket is scaled up to replicas but never down, so one
// process started without --replicas 3 cannot weaken a cluster's bucket;
// its TTL and history stay the first writer's. ttl is how long an entry
// lives after its last write; replicas as for the stream (1 embedded, 3
// on a cluster).
func OpenKV(ctx context.Context, nc *nats.Conn, bucket string, ttl time.Duration, replicas int) (*KV, error) {
	js, err := jetstream.New(nc, jetstream.WithDefaultTimeout(DefaultTimeout))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	kv, err := js.KeyValue(ctx, bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket: bucket, Description: "Crossrank: " + bucket, TTL: ttl, History: 1,
			Storage: jetstream.FileStorage, Replicas: max(replicas, 1),
		})
		if errors.Is(err, jetstream.ErrBucketExists) { // another replica was first
			kv, err = js.KeyValue(ctx, bucket)
		}
	}
	if err != nil {
		return nil, kvErr("open bucket "+bucket, err)
	}
	if err := scaleUp(ctx, js, kv, replicas); err != nil {
		return nil, kvErr("scale bucket "+bucket, err)
	}
	return &KV{nc: nc, kv: kv, timeout: DefaultTimeout}, nil
}

// scaleUp raises the bucket's replicas to at least replicas.
func scaleUp(ctx context.Context, js jetstream.JetStream, kv jetstream.KeyValue, replicas int) error {
	st, err := kv.Status(ctx)
	if err != nil {
		return err
	}
	info := st.(*jetstream.KeyValueBucketStatus).StreamInfo()
	if info.Config.Replicas >= replicas {
		return nil
	}
	_, err = js.UpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: kv.Bucket(), Description: info.Config.Description, TTL: info.Config.MaxAge,
		History: uint8(info.Config.MaxMsgsPerSubject), Storage: jetstream.FileStorage, Replicas: replicas,
	})
	return err
}

// Put stores value under key.
func (k *KV) Put(ctx context.Context, key string, value []byte) error {
	if err := connected(k.nc); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, k.timeout)
	defer cancel()
	if _, err := k.kv.Put(ctx, key, value); err != nil {
		return kvErr("put", err)
	}
	return nil
}

// Get returns the value stored under key; found is false when there is
// none (never written, deleted or expired).
func (k *KV) Get(ctx context.Context, key string) (value []byte, found bool, err error) {
	if err := connected(k.nc); err != nil {
		return nil, false, err
	}
	ctx, cancel := context.WithTimeout(ctx, k.timeout)
	defer cancel()
	e, err := k.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, kvErr("get", err)
	}
	return e.Value(), true, nil
}

// Watch calls fn with every entry of the bucket, then calls ready, then
// calls fn with every change (deleted: the key was deleted or purged)
// until ctx ends. After a reconnect it returns an error: the client's
// watcher may sit on a consumer the restarted server no longer has (it
// noticed only after missing heartbeats, well over 15 s), so the caller
// watches again, from the current entries.
func (k *KV) Watch(ctx context.Context, fn func(key string, value []byte, deleted bool), ready func()) error {
	reconnected := k.nc.StatusChanged(nats.CONNECTED)
	defer k.nc.RemoveStatusListener(reconnected)
	w, err := k.kv.WatchAll(ctx)
	if err != nil {
		return kvErr("watch", err)
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-reconnected:
			return fmt.Errorf("%w: kv watch: reconnected to NATS", events.ErrUnavailable)
		case e, ok := <-w.Updates():
			switch {
			case !ok:
				return kvErr("watch", errors.New("watcher stopped"))
			case e == nil: // the current entries have all been delivered
				if ready != nil {
					ready()
					ready = nil
				}
			default:
				fn(e.Key(), e.Value(), e.Operation() != jetstream.KeyValuePut)
			}
		}
	}
}

func kvErr(op string, err error) error {
	if unavailable(err) {
		return fmt.Errorf("%w: kv %s: %v", events.ErrUnavailable, op, err)
	}
	return fmt.Errorf("jetstream: kv %s: %w", op, err)
}

// connected returns ErrUnavailable naming the connection's state unless
// nc is connected: a bucket or object store call would otherwise wait out
// its timeout.
func connected(nc *nats.Conn) error {
	if st := nc.Status(); st != nats.CONNECTED {
		return fmt.Errorf("%w: NATS connection %s", events.ErrUnavailable, st)
	}
	return nil
}
