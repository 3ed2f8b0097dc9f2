package jetstream

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The import jobs' buckets (web/imports): each job's state, which every
// replica answers from, and the checked uploads waiting for their owner's
// confirmation, which any replica may carry out.
const (
	ImportJobsBucket  = "CROSSRANK_IMPORT_JOBS"
	ImportFilesBucket = "CROSSRANK_IMPORT_FILES"
)

// filesTimeout bounds one file's put or get: an upload may be 32 MiB,
// sent in chunks, far more than one KV value.
const filesTimeout = time.Minute

// Files is a JetStream object store of files that outlive the request that
// brought them but not ttl: the checked uploads of imports. Entries expire
// ttl after their write.
type Files struct {
	nc  *nats.Conn
	obs jetstream.ObjectStore
}

// OpenFiles creates bucket or opens it (file storage, compressed, the
// given replicas; an existing bucket is used as it is).
func OpenFiles(ctx context.Context, nc *nats.Conn, bucket string, ttl time.Duration, replicas int) (*Files, error) {
	js, err := jetstream.New(nc, jetstream.WithDefaultTimeout(DefaultTimeout))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	obs, err := js.ObjectStore(ctx, bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		obs, err = js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{
			Bucket: bucket, Description: "Crossrank: " + bucket, TTL: ttl,
			Storage: jetstream.FileStorage, Replicas: max(replicas, 1), Compression: true,
		})
		if errors.Is(err, jetstream.ErrBucketExists) { // another replica was first
			obs, err = js.ObjectStore(ctx, bucket)
		}
	}
	if err != nil {
		return nil, kvErr("open object store "+bucket, err)
	}
	return &Files{nc: nc, obs: obs}, nil
}

// PutFile stores data under name.
func (f *Files) PutFile(ctx context.Context, name string, data []byte) error {
	if err := connected(f.nc); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, filesTimeout)
	defer cancel()
	if _, err := f.obs.PutBytes(ctx, name, data); err != nil {
		return kvErr("put file", err)
	}
	return nil
}

// GetFile returns the file stored under name; found is false when there
// is none (never written, deleted or expired).
func (f *Files) GetFile(ctx context.Context, name string) (data []byte, found bool, err error) {
	if err := connected(f.nc); err != nil {
		return nil, false, err
	}
	ctx, cancel := context.WithTimeout(ctx, filesTimeout)
	defer cancel()
	data, err = f.obs.GetBytes(ctx, name)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, kvErr("get file", err)
	}
	return data, true, nil
}
