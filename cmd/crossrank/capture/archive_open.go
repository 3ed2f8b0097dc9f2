package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/nats-io/nats.go/jetstream"
)

// Opened is a stored record being read: its WARC fields and HTTP head in
// Record (whose Body is unset), its body in Body, Size bytes long. Close
// it.
type Opened struct {
	Record
	Size int64
	Body io.Reader
}

// Close stops reading the object. Nothing is held between reads, so
// there is nothing to release; it is there for io.ReadCloser.
func (o *Opened) Close() error { return nil }

// verifications remembers which records have had their digests checked,
// so that every reader after the first streams the body without reading
// it twice. One check runs per key at a time; a failed one is forgotten,
// so the next reader checks again.
type verifications struct {
	mu   sync.Mutex
	done map[string]*verification
}

type verification struct {
	once sync.Once
	err  error
}

func (v *verifications) get(key string) *verification {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.done == nil {
		v.done = map[string]*verification{}
	}
	c, ok := v.done[key]
	if !ok {
		c = &verification{}
		v.done[key] = c
	}
	return c
}

func (v *verifications) forget(key string, c *verification) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.done[key] == c {
		delete(v.done, key)
	}
}

// Open returns the record stored under key with its body left to read, a
// buffer at a time: serving a 10 MiB capture holds kilobytes, not the
// page. The digests are checked on the first Open of a key in this
// process (a full read of the record, streamed too), and remembered.
func (a *Archive) Open(ctx context.Context, key string) (*Opened, error) {
	if !keyPattern.MatchString(key) {
		return nil, fmt.Errorf("%w: %q is not a hex SHA-256", ErrNotFound, key)
	}
	if err := a.checkOnce(ctx, key); err != nil {
		return nil, err
	}
	s, err := a.open(ctx, key)
	if err != nil {
		return nil, err
	}
	return &Opened{Record: s.rec, Size: s.size, Body: s.br}, nil
}

// OpenRecord returns the whole WARC record stored under key, Size bytes
// as archived, to read a chunk at a time, for readers who take the record
// home. Its digests are checked as Open checks them.
func (a *Archive) OpenRecord(ctx context.Context, key string) (io.Reader, int64, error) {
	if !keyPattern.MatchString(key) {
		return nil, 0, fmt.Errorf("%w: %q is not a hex SHA-256", ErrNotFound, key)
	}
	if err := a.checkOnce(ctx, key); err != nil {
		return nil, 0, err
	}
	info, err := a.info(ctx, key)
	if err != nil {
		return nil, 0, err
	}
	return &chunks{ctx: ctx, stream: a.chunks, subject: "$O." + Bucket + ".C." + info.NUID, left: int(info.Chunks)}, int64(info.Size), nil
}

// checkOnce checks the digests of the record under key the first time
// this process reads it.
func (a *Archive) checkOnce(ctx context.Context, key string) error {
	c := a.checked.get(key)
	c.once.Do(func() { c.err = a.verify(ctx, key) })
	if c.err != nil {
		a.checked.forget(key, c)
	}
	return c.err
}

// info returns the object's description under key.
func (a *Archive) info(ctx context.Context, key string) (*jetstream.ObjectInfo, error) {
	info, err := a.obs.GetInfo(ctx, key)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	if err != nil {
		return nil, fmt.Errorf("capture: get %s: %w", key, err)
	}
	return info, nil
}

// open starts reading the record under key.
func (a *Archive) open(ctx context.Context, key string) (*streamed, error) {
	info, err := a.info(ctx, key)
	if err != nil {
		return nil, err
	}
	s, err := readHead(&chunks{ctx: ctx, stream: a.chunks, subject: "$O." + Bucket + ".C." + info.NUID, left: int(info.Chunks)})
	if err != nil {
		return nil, fmt.Errorf("capture: %s: %w", key, err)
	}
	return s, nil
}

// verify reads the record under key through and checks its digests.
func (a *Archive) verify(ctx context.Context, key string) error {
	s, err := a.open(ctx, key)
	if err != nil {
		return err
	}
	if err := s.verify(key); err != nil {
		return fmt.Errorf("capture: %s: %w", key, err)
	}
	return nil
}

// Read reads the body.
func (o *Opened) Read(p []byte) (int, error) { return o.Body.Read(p) }

// chunks reads an object's chunk messages one at a time, each by a direct
// get of the next message on the object's chunk subject. The object
// store's own Get pushes the whole object to the client as fast as the
// server sends it, and gives up after the client's default timeout: a
// slow reader of a large page would have it buffered whole, then cut off.
// Here a reader holds one chunk (128 KiB) and takes as long as it takes.
type chunks struct {
	ctx     context.Context
	stream  jetstream.Stream
	subject string
	next    uint64 // the stream sequence to look from
	left    int    // chunks still to read
	buf     []byte
}

func (c *chunks) Read(p []byte) (int, error) {
	for len(c.buf) == 0 {
		if c.left == 0 {
			return 0, io.EOF
		}
		m, err := c.stream.GetMsg(c.ctx, c.next, jetstream.WithGetMsgSubject(c.subject))
		if err != nil {
			return 0, fmt.Errorf("capture: read %s: %w", c.subject, err)
		}
		c.buf, c.next, c.left = m.Data, m.Sequence+1, c.left-1
	}
	n := copy(p, c.buf)
	c.buf = c.buf[n:]
	return n, nil
}
