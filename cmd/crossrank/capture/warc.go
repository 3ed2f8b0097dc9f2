package capture

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"maps"
	"net/http"
	"net/netip"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrRecord says a WARC record could not be read: malformed, too large,
// not an HTTP response, or a digest that does not match.
var ErrRecord = errors.New("capture: bad WARC record")

// MaxRecord bounds a record ReadRecord accepts: the largest body a
// Fetcher keeps, with room for the headers.
const MaxRecord = DefaultMaxBody + 1<<20

// maskPrefix hides the HTTP headers that no longer describe the stored
// body (it is stored decompressed and unchunked). It is the prefix Common
// Crawl uses for the same purpose, so WARC tools already know it.
const maskPrefix = "X-Crawler-"

// Record is a WARC/1.1 'response' record: one HTTP response as captured.
type Record struct {
	ID        string     // "<urn:uuid:…>"
	Date      time.Time  // when the capture began, UTC, whole seconds
	TargetURI string     // the URL this response answered
	IP        netip.Addr // where it came from; zero: not recorded
	Status    string     // the status line: "HTTP/1.1 200 OK"
	Header    http.Header
	Body      []byte // the payload, decompressed
}

// NewRecord returns the record of a fetched response. Its headers are the
// server's, except that Content-Encoding, Transfer-Encoding and a
// Content-Length that no longer holds are kept under the X-Crawler-
// prefix, and Content-Length gives the stored body's length.
func NewRecord(r *Response) Record {
	h := r.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if r.ContentEncoding != "" {
		h[maskPrefix+"Content-Encoding"] = h.Values("Content-Encoding")
		h.Del("Content-Encoding")
	}
	if len(r.TransferEncoding) > 0 {
		h[maskPrefix+"Transfer-Encoding"] = slices.Clone(r.TransferEncoding)
		h.Del("Transfer-Encoding")
	}
	length := strconv.Itoa(len(r.Body))
	if cl := h.Values("Content-Length"); len(cl) > 0 && (len(cl) > 1 || cl[0] != length) {
		h[maskPrefix+"Content-Length"] = cl
	}
	h.Set("Content-Length", length)
	return Record{
		ID:        newRecordID(),
		Date:      r.Date.UTC().Truncate(time.Second),
		TargetURI: r.FinalURL,
		IP:        r.IP,
		Status:    r.Proto + " " + r.Status,
		Header:    h,
		Body:      r.Body,
	}
}

// Key returns the hex SHA-256 of the body: the name the record is stored
// under and the digest the evidence cites.
func (r *Record) Key() string {
	sum := sha256.Sum256(r.Body)
	return hex.EncodeToString(sum[:])
}

// httpHead returns the start of the HTTP response message the record
// holds: status line, headers sorted by name, blank line. The body
// follows it.
func (r *Record) httpHead() []byte {
	var b bytes.Buffer
	b.WriteString(r.Status + "\r\n")
	for _, k := range slices.Sorted(maps.Keys(r.Header)) {
		for _, v := range r.Header[k] {
			b.WriteString(k + ": " + v + "\r\n")
		}
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// recordEnd closes a WARC record, after its block.
const recordEnd = "\r\n\r\n"

// head returns the record in WARC/1.1 form up to its body: version line,
// WARC fields, blank line, and the HTTP status line and headers. The body
// and recordEnd complete it; a caller streams the three rather than copy
// a body of megabytes into one buffer. key is the body's hex SHA-256, as
// Key returns it.
func (r *Record) head(key string) ([]byte, error) {
	if strings.ContainsAny(r.TargetURI, " \t\r\n") || strings.ContainsAny(r.ID, " \t\r\n") {
		return nil, fmt.Errorf("%w: whitespace in the target URI or record id", ErrRecord)
	}
	httpHead := r.httpHead()
	blockHash := sha256.New()
	blockHash.Write(httpHead)
	blockHash.Write(r.Body)
	var b bytes.Buffer
	b.WriteString("WARC/1.1\r\n")
	field := func(name, value string) { b.WriteString(name + ": " + value + "\r\n") }
	field("WARC-Type", "response")
	field("WARC-Record-ID", r.ID)
	field("WARC-Date", r.Date.UTC().Format(time.RFC3339))
	field("WARC-Target-URI", r.TargetURI)
	if r.IP.IsValid() {
		field("WARC-IP-Address", r.IP.String())
	}
	field("WARC-Payload-Digest", "sha256:"+key)
	field("WARC-Block-Digest", "sha256:"+hex.EncodeToString(blockHash.Sum(nil)))
	field("Content-Type", "application/http;msgtype=response")
	field("Content-Length", strconv.Itoa(len(httpHead)+len(r.Body)))
	b.WriteString("\r\n")
	b.Write(httpHead)
	return b.Bytes(), nil
}

// MarshalBinary returns the record in WARC/1.1 form.
func (r *Record) MarshalBinary() ([]byte, error) {
	head, err := r.head(r.Key())
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(head)+len(r.Body)+len(recordEnd))
	return append(append(append(out, head...), r.Body...), recordEnd...), nil
}

// newRecordID returns a random (version 4) UUID URN in angle brackets.
func newRecordID() string {
	var u [16]byte
	rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", u[0:4], u[4:6], u[6:8], u[8:10], u[10:])
}

// readFields reads a record's version line and WARC fields and checks that
// it is an HTTP 'response' record whose block length n is within
// MaxRecord; ReadRecord and the streaming reader (readHead) share it.
func readFields(tp *textproto.Reader) (fields textproto.MIMEHeader, n int64, err error) {
	version, err := tp.ReadLine()
	if err != nil || (version != "WARC/1.1" && version != "WARC/1.0") {
		return nil, 0, fmt.Errorf("%w: version line %q", ErrRecord, version)
	}
	fields, err = tp.ReadMIMEHeader()
	if err != nil {
		return nil, 0, fmt.Errorf("%w: WARC fields: %v", ErrRecord, err)
	}
	if fields.Get("Warc-Type") != "response" || !strings.HasPrefix(fields.Get("Content-Type"), "application/http") {
		return nil, 0, fmt.Errorf("%w: not an HTTP response record", ErrRecord)
	}
	n, err = strconv.ParseInt(fields.Get("Content-Length"), 10, 64)
	if err != nil || n < 0 || n > MaxRecord {
		return nil, 0, fmt.Errorf("%w: Content-Length %q", ErrRecord, fields.Get("Content-Length"))
	}
	return fields, n, nil
}

// ReadRecord reads one WARC/1.0 or WARC/1.1 'response' record of an HTTP
// response and checks its block and payload digests (sha1 or sha256, in
// base32 or hex) where it carries them.
func ReadRecord(rd io.Reader) (*Record, error) {
	br := bufio.NewReader(io.LimitReader(rd, MaxRecord+64<<10))
	fields, n, err := readFields(textproto.NewReader(br))
	if err != nil {
		return nil, err
	}
	block := make([]byte, n)
	if _, err := io.ReadFull(br, block); err != nil {
		return nil, fmt.Errorf("%w: block: %v", ErrRecord, err)
	}
	var end [4]byte
	if _, err := io.ReadFull(br, end[:]); err != nil || string(end[:]) != "\r\n\r\n" {
		return nil, fmt.Errorf("%w: no CRLF CRLF after the block", ErrRecord)
	}
	if err := checkDigest(fields.Get("Warc-Block-Digest"), block); err != nil {
		return nil, fmt.Errorf("block: %w", err)
	}
	date, err := time.Parse(time.RFC3339Nano, fields.Get("Warc-Date"))
	if err != nil {
		return nil, fmt.Errorf("%w: WARC-Date: %v", ErrRecord, err)
	}
	r := &Record{ID: fields.Get("Warc-Record-Id"), Date: date, TargetURI: fields.Get("Warc-Target-Uri")}
	if ip := fields.Get("Warc-Ip-Address"); ip != "" {
		if r.IP, err = netip.ParseAddr(ip); err != nil {
			return nil, fmt.Errorf("%w: WARC-IP-Address: %v", ErrRecord, err)
		}
	}
	if r.ID == "" || r.TargetURI == "" {
		return nil, fmt.Errorf("%w: no WARC-Record-ID or WARC-Target-URI", ErrRecord)
	}
	if err := r.parseBlock(block); err != nil {
		return nil, err
	}
	if err := checkDigest(fields.Get("Warc-Payload-Digest"), r.Body); err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	return r, nil
}

// parseBlock splits the HTTP response message into status, headers and
// body. The body is everything after the headers: it was stored whole,
// so its length is the block's, whatever a Content-Length header says.
func (r *Record) parseBlock(block []byte) error {
	head, body, ok := bytes.Cut(block, []byte("\r\n\r\n"))
	if !ok {
		return fmt.Errorf("%w: HTTP headers not terminated", ErrRecord)
	}
	tp := textproto.NewReader(bufio.NewReader(bytes.NewReader(append(head, "\r\n\r\n"...))))
	status, err := tp.ReadLine()
	if err != nil || !strings.HasPrefix(status, "HTTP/") {
		return fmt.Errorf("%w: status line %q", ErrRecord, status)
	}
	h, err := tp.ReadMIMEHeader()
	if err != nil {
		return fmt.Errorf("%w: HTTP headers: %v", ErrRecord, err)
	}
	r.Status, r.Header, r.Body = status, http.Header(h), body
	return nil
}

// checkDigest checks a labelled digest ("sha256:…") against data. An
// empty label is no claim and passes; an algorithm we do not know cannot
// be checked and passes too, as the spec asks readers to tolerate.
func checkDigest(labelled string, data []byte) error {
	if labelled == "" {
		return nil
	}
	alg, value, ok := strings.Cut(labelled, ":")
	if !ok {
		return fmt.Errorf("%w: digest %q", ErrRecord, labelled)
	}
	var h hash.Hash
	switch strings.ToLower(alg) {
	case "sha256":
		h = sha256.New()
	case "sha1":
		h = sha1.New()
	default:
		return nil
	}
	h.Write(data)
	sum := h.Sum(nil)
	if strings.EqualFold(value, hex.EncodeToString(sum)) ||
		strings.EqualFold(strings.TrimRight(value, "="), base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum)) {
		return nil
	}
	return fmt.Errorf("%w: %s digest does not match", ErrRecord, alg)
}
