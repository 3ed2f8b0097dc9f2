package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Bucket is the Object Store bucket that holds the captures.
const Bucket = "CROSSRANK_CAPTURES"

// ErrNotFound says no capture is stored under a key.
var ErrNotFound = errors.New("capture: no capture under that key")

var keyPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Archive stores WARC records in a JetStream Object Store bucket, one
// object per distinct body, named by the body's hex SHA-256.
//
// Storing by body means the same page captured twice, or two URLs that
// serve the same bytes, are stored once: the first record stays, with its
// target URI and date. Which URL was cited when is the event's to say;
// the archive proves what the bytes were.
type Archive struct {
	obs     jetstream.ObjectStore
	chunks  jetstream.Stream // the bucket's stream, which Open reads chunk by chunk
	checked verifications    // the keys whose digests Open has checked
}

// OpenArchive opens the bucket, creating it (file storage, compressed,
// the given number of replicas) if it does not exist. An existing bucket
// is used as it is: changing its replicas is an operator's job.
func OpenArchive(ctx context.Context, js jetstream.JetStream, replicas int) (*Archive, error) {
	if replicas < 1 {
		replicas = 1
	}
	obs, err := js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket:      Bucket,
		Description: "Crossrank evidence captures: WARC/1.1 response records named by the SHA-256 of their body",
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
		Compression: true,
	})
	if errors.Is(err, jetstream.ErrBucketExists) {
		obs, err = js.ObjectStore(ctx, Bucket)
	}
	if err != nil {
		return nil, fmt.Errorf("capture: open bucket %s: %w", Bucket, err)
	}
	stream, err := js.Stream(ctx, "OBJ_"+Bucket)
	if err != nil {
		return nil, fmt.Errorf("capture: open bucket %s: %w", Bucket, err)
	}
	return &Archive{obs: obs, chunks: stream}, nil
}

// Put stores rec under rec.Key() and reports whether it wrote anything:
// when an object of that name exists, the body is already kept and Put
// does nothing.
//
// Two Puts of the same new body at once may both write; the later one's
// record then replaces the earlier. Both hold the same body, so the key
// stays true; a single worker per stream, as the capture worker is, never
// does this.
func (a *Archive) Put(ctx context.Context, rec *Record) (key string, stored bool, err error) {
	key = rec.Key()
	_, err = a.obs.GetInfo(ctx, key)
	switch {
	case err == nil:
		return key, false, nil
	case !errors.Is(err, jetstream.ErrObjectNotFound):
		return key, false, fmt.Errorf("capture: look up %s: %w", key, err)
	}
	head, err := rec.head(key)
	if err != nil {
		return key, false, err
	}
	meta := jetstream.ObjectMeta{
		Name:        key,
		Description: rec.TargetURI,
		Headers:     nats.Header{"Content-Type": {"application/warc"}},
		Metadata: map[string]string{
			"warc-record-id": rec.ID,
			"warc-date":      rec.Date.UTC().Format("2006-01-02T15:04:05Z"),
			"target-uri":     rec.TargetURI,
		},
	}
	// The record streams from its parts, the body uncopied; fullReader
	// keeps the Object Store's chunks whole across the parts' seams.
	raw := io.MultiReader(bytes.NewReader(head), bytes.NewReader(rec.Body), strings.NewReader(recordEnd))
	if _, err := a.obs.Put(ctx, meta, fullReader{raw}); err != nil {
		return key, false, fmt.Errorf("capture: store %s: %w", key, err)
	}
	return key, true, nil
}

// fullReader fills each buffer it is given unless the reader ends: the
// Object Store makes a chunk of each Read, and a reader over parts would
// otherwise end a chunk, short, at each part's end.
type fullReader struct{ r io.Reader }

func (f fullReader) Read(p []byte) (int, error) {
	n, err := io.ReadFull(f.r, p)
	if err == io.ErrUnexpectedEOF {
		err = nil // the next Read says EOF
	}
	return n, err
}

// Get returns the record stored under key (a body's hex SHA-256), read
// and its digests checked.
func (a *Archive) Get(ctx context.Context, key string) (*Record, error) {
	if !keyPattern.MatchString(key) {
		return nil, fmt.Errorf("%w: %q is not a hex SHA-256", ErrNotFound, key)
	}
	raw, err := a.obs.GetBytes(ctx, key)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	if err != nil {
		return nil, fmt.Errorf("capture: get %s: %w", key, err)
	}
	rec, err := ReadRecord(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("capture: %s: %w", key, err)
	}
	if rec.Key() != key {
		return nil, fmt.Errorf("%w: %s holds a body whose digest is %s", ErrRecord, key, rec.Key())
	}
	return rec, nil
}
