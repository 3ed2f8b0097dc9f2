package capture

import (
	"bufio"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/textproto"
	"strings"
	"time"
)

// streamed is a WARC response record whose fields and HTTP head have been
// read and whose body is left in the reader: a 10 MiB page is served or
// checked a buffer at a time, never held whole.
type streamed struct {
	rec    Record // Body unset
	size   int64  // the body's length
	fields textproto.MIMEHeader
	block  hash.Hash     // the block digest's hash, fed everything read of the block
	br     *bufio.Reader // reads the rest of the block: the body, then EOF
	tail   io.Reader     // what follows the block: CRLF CRLF
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// readHead reads a record's WARC fields and HTTP status and headers from
// rd, checking them as ReadRecord does, and leaves the body to read.
func readHead(rd io.Reader) (*streamed, error) {
	outer := bufio.NewReaderSize(rd, 16<<10)
	tp := textproto.NewReader(outer)
	fields, n, err := readFields(tp)
	if err != nil {
		return nil, err
	}
	date, err := time.Parse(time.RFC3339Nano, fields.Get("Warc-Date"))
	if err != nil {
		return nil, fmt.Errorf("%w: WARC-Date: %v", ErrRecord, err)
	}
	s := &streamed{fields: fields, block: digestHash(fields.Get("Warc-Block-Digest"))}
	s.rec = Record{ID: fields.Get("Warc-Record-Id"), Date: date, TargetURI: fields.Get("Warc-Target-Uri")}
	if s.rec.ID == "" || s.rec.TargetURI == "" {
		return nil, fmt.Errorf("%w: no WARC-Record-ID or WARC-Target-URI", ErrRecord)
	}
	blockReader := io.LimitReader(outer, n)
	counted := &countingReader{r: io.TeeReader(blockReader, s.block)}
	s.br = bufio.NewReaderSize(counted, 16<<10)
	s.tail = outer
	htp := textproto.NewReader(s.br)
	status, err := htp.ReadLine()
	if err != nil || !strings.HasPrefix(status, "HTTP/") {
		return nil, fmt.Errorf("%w: status line %q", ErrRecord, status)
	}
	h, err := htp.ReadMIMEHeader()
	if err != nil {
		return nil, fmt.Errorf("%w: HTTP headers: %v", ErrRecord, err)
	}
	s.rec.Status, s.rec.Header = status, http.Header(h)
	s.size = n - (counted.n - int64(s.br.Buffered()))
	return s, nil
}

// verify reads the rest of the record and checks its digests, and that
// its payload's SHA-256 is key.
func (s *streamed) verify(key string) error {
	payload := digestHash(s.fields.Get("Warc-Payload-Digest"))
	sum := sha256.New()
	if _, err := io.Copy(io.MultiWriter(payload, sum), s.br); err != nil {
		return fmt.Errorf("%w: block: %v", ErrRecord, err)
	}
	var end [4]byte
	if _, err := io.ReadFull(s.tail, end[:]); err != nil || string(end[:]) != "\r\n\r\n" {
		return fmt.Errorf("%w: no CRLF CRLF after the block", ErrRecord)
	}
	if err := matchDigest(s.fields.Get("Warc-Block-Digest"), s.block); err != nil {
		return fmt.Errorf("block: %w", err)
	}
	if err := matchDigest(s.fields.Get("Warc-Payload-Digest"), payload); err != nil {
		return fmt.Errorf("payload: %w", err)
	}
	if got := hex.EncodeToString(sum.Sum(nil)); got != key {
		return fmt.Errorf("%w: %s holds a body whose digest is %s", ErrRecord, key, got)
	}
	return nil
}

// digestHash returns the hash a labelled digest ("sha256:…") is made
// with; when there is no label or the algorithm is unknown, a SHA-256
// that matchDigest does not check (the spec asks readers to tolerate
// those).
func digestHash(labelled string) hash.Hash {
	alg, _, _ := strings.Cut(labelled, ":")
	if strings.EqualFold(alg, "sha1") {
		return sha1.New()
	}
	return sha256.New()
}

// matchDigest checks the labelled digest against h, which digestHash
// made for it and which has been fed the data.
func matchDigest(labelled string, h hash.Hash) error {
	if labelled == "" {
		return nil
	}
	alg, value, ok := strings.Cut(labelled, ":")
	if !ok {
		return fmt.Errorf("%w: digest %q", ErrRecord, labelled)
	}
	if !strings.EqualFold(alg, "sha256") && !strings.EqualFold(alg, "sha1") {
		return nil
	}
	sum := h.Sum(nil)
	if strings.EqualFold(value, hex.EncodeToString(sum)) ||
		strings.EqualFold(strings.TrimRight(value, "="), base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum)) {
		return nil
	}
	return fmt.Errorf("%w: digest does not match", ErrRecord)
}
