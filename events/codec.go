package events

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Header names of CloudEvents binary mode over NATS.
const (
	HeaderSpecVersion   = "ce-specversion"
	HeaderID            = "ce-id"
	HeaderSource        = "ce-source"
	HeaderType          = "ce-type"
	HeaderSubject       = "ce-subject"
	HeaderTime          = "ce-time"
	HeaderActor         = "ce-actor"
	HeaderAuthVia       = "ce-authvia"
	HeaderCorrelationID = "ce-correlationid"
	HeaderCausationID   = "ce-causationid"
	HeaderContentType   = "Content-Type"
	HeaderMsgID         = "Nats-Msg-Id"
)

// MaxBody bounds the JSON body of one event.
const MaxBody = 256 << 10

// Header is a NATS message header (the same shape as nats.Header).
type Header map[string][]string

func (h Header) get(k string) string {
	if v := h[k]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// New builds an event for payload with its type taken from the catalog.
// The id and time come from the caller: domain code stays deterministic.
func New(id string, at time.Time, actor, subject string, payload any) (Event, error) {
	typ, err := TypeName(payload)
	if err != nil {
		return Event{}, err
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return Event{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return Event{
		ID: id, Source: DefaultSource, Type: typ, StoredType: typ, Subject: subject,
		Time: at.UTC(), Actor: actor, DataContentType: ContentType, Data: payload, Raw: raw,
	}, nil
}

// Encode returns the NATS subject, headers and body of e.
func Encode(e Event) (subject string, h Header, body []byte, err error) {
	if e.Raw == nil {
		if e.Raw, err = json.Marshal(e.Data); err != nil {
			return "", nil, nil, fmt.Errorf("%w: %v", ErrMalformed, err)
		}
	}
	if len(e.Raw) > MaxBody {
		return "", nil, nil, fmt.Errorf("%w: event body %d bytes > %d", ErrTooLarge, len(e.Raw), MaxBody)
	}
	if !ValidID(e.Subject) {
		return "", nil, nil, fmt.Errorf("%w: aggregate id %q", ErrMalformed, e.Subject)
	}
	// Refuse what Decode would refuse: a message that cannot be read back
	// would stop every replay of the stream.
	if e.ID == "" || e.Source == "" {
		return "", nil, nil, fmt.Errorf("%w: event without id or source", ErrMalformed)
	}
	if _, _, _, err := ParseType(e.Type); err != nil {
		return "", nil, nil, err
	}
	h = Header{
		HeaderSpecVersion: {SpecVersion},
		HeaderID:          {e.ID},
		HeaderSource:      {e.Source},
		HeaderType:        {e.Type},
		HeaderSubject:     {e.Subject},
		HeaderTime:        {e.Time.UTC().Format(time.RFC3339Nano)},
		HeaderContentType: {ContentType},
		HeaderMsgID:       {e.ID},
	}
	if e.Actor != "" {
		h[HeaderActor] = []string{e.Actor}
	}
	if e.AuthVia != "" {
		h[HeaderAuthVia] = []string{e.AuthVia}
	}
	if e.CorrelationID != "" {
		h[HeaderCorrelationID] = []string{e.CorrelationID}
	}
	if e.CausationID != "" {
		h[HeaderCausationID] = []string{e.CausationID}
	}
	return e.NATSSubject(), h, e.Raw, nil
}

// Decode reads an event from a NATS message stored at sequence seq. Older
// versions are upcast; an unknown type returns ErrUnknownType.
func Decode(subject string, h Header, body []byte, seq uint64) (Event, error) {
	if h.get(HeaderSpecVersion) != SpecVersion {
		return Event{}, fmt.Errorf("%w: seq %d: ce-specversion %q", ErrMalformed, seq, h.get(HeaderSpecVersion))
	}
	e := Event{
		ID: h.get(HeaderID), Source: h.get(HeaderSource), Type: h.get(HeaderType),
		Subject: h.get(HeaderSubject), Actor: h.get(HeaderActor), AuthVia: h.get(HeaderAuthVia),
		DataContentType: h.get(HeaderContentType), CorrelationID: h.get(HeaderCorrelationID),
		CausationID: h.get(HeaderCausationID), Sequence: seq,
	}
	e.detach()
	e.StoredType = e.Type
	for _, s := range []string{e.ID, e.Source, e.Type, e.Subject, e.Actor, e.AuthVia, e.CorrelationID, e.CausationID} {
		if !utf8.ValidString(s) {
			return Event{}, fmt.Errorf("%w: seq %d: header is not UTF-8", ErrMalformed, seq)
		}
	}
	if e.ID == "" || e.Source == "" || !ValidID(e.Subject) {
		return Event{}, fmt.Errorf("%w: seq %d: missing id, source or subject", ErrMalformed, seq)
	}
	if e.DataContentType != ContentType {
		return Event{}, fmt.Errorf("%w: seq %d: content type %q", ErrMalformed, seq, e.DataContentType)
	}
	kind, name, _, err := ParseType(e.Type)
	if err != nil {
		return Event{}, fmt.Errorf("seq %d: %w", seq, err)
	}
	if want := SubjectPrefix + string(kind) + "." + e.Subject + "." + name; subject != "" && subject != want {
		return Event{}, fmt.Errorf("%w: seq %d: subject %q does not match type and id (%q)", ErrMalformed, seq, subject, want)
	}
	t, err := time.Parse(time.RFC3339Nano, h.get(HeaderTime))
	if err != nil {
		return Event{}, fmt.Errorf("%w: seq %d: ce-time: %v", ErrMalformed, seq, err)
	}
	e.Time = t.UTC()
	if len(body) > MaxBody || !utf8.Valid(body) {
		return Event{}, fmt.Errorf("%w: seq %d: body too large or not UTF-8", ErrMalformed, seq)
	}
	e.Raw = bytes.Clone(body)
	typ, _, data, err := DecodeData(e.Type, body)
	if err != nil {
		return Event{}, fmt.Errorf("seq %d (%s): %w", seq, e.Type, err)
	}
	e.Type, e.Data = typ, data
	return e, nil
}

// detach gives the attributes read from a message's headers memory of
// their own. nats.go copies a message's header block into one string and
// hands out substrings of it, so an event id kept by a cache (domain's
// handler keeps every cached aggregate's event ids) would otherwise keep
// the whole block alive, every header of the message with it. The id and
// the actor, which states keep, get an allocation each; the rest, read
// while the event is applied and then dropped, share one.
func (e *Event) detach() {
	e.ID, e.Actor = strings.Clone(e.ID), strings.Clone(e.Actor)
	fields := []*string{&e.Type, &e.Subject, &e.AuthVia, &e.CorrelationID, &e.CausationID}
	if e.Source == DefaultSource {
		e.Source = DefaultSource // the constant's bytes, shared by every event
	} else {
		fields = append(fields, &e.Source)
	}
	if e.DataContentType == ContentType {
		e.DataContentType = ContentType
	} else {
		fields = append(fields, &e.DataContentType)
	}
	n := 0
	for _, f := range fields {
		n += len(*f)
	}
	var b strings.Builder
	b.Grow(n)
	for _, f := range fields {
		b.WriteString(*f)
	}
	all := b.String()
	for _, f := range fields {
		*f, all = all[:len(*f)], all[len(*f):]
	}
}

// Canonical returns the bytes an event is hashed over: a JSON object with
// fixed key order holding the stored type and the body exactly as stored.
// Replaying the log gives the same bytes on any machine.
//
// The authvia attribute came later: it is written (after causationid) only
// when the event has one, so every event stored before it hashes to the
// same bytes as it always did and existing audit heads stay valid.
func Canonical(e Event) []byte {
	return appendCanonical(make([]byte, 0, len(e.Raw)+320), e)
}

// appendCanonical appends the canonical bytes of e to b. It writes what
// encoding/json would (the same string escaping) without its reflection:
// the audit chain hashes every event of a replay.
func appendCanonical(b []byte, e Event) []byte {
	b = append(b, `{"seq":`...)
	b = strconv.AppendUint(b, e.Sequence, 10)
	for _, kv := range [...][2]string{
		{`,"id":`, e.ID}, {`,"source":`, e.Source}, {`,"type":`, e.StoredType}, {`,"subject":`, e.Subject},
		{`,"datacontenttype":`, e.DataContentType},
		{`,"time":`, e.Time.UTC().Format(time.RFC3339Nano)}, {`,"actor":`, e.Actor},
		{`,"correlationid":`, e.CorrelationID}, {`,"causationid":`, e.CausationID},
	} {
		b = append(b, kv[0]...)
		b = appendJSONString(b, kv[1])
	}
	if e.AuthVia != "" {
		b = append(b, `,"authvia":`...)
		b = appendJSONString(b, e.AuthVia)
	}
	b = append(b, `,"data":`...)
	buf := bytes.NewBuffer(b)
	if json.Compact(buf, e.Raw) == nil {
		b = buf.Bytes()
	} else {
		b = appendJSONString(b, string(e.Raw))
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string exactly as encoding/json
// writes it: HTML-safe escapes for <, > and &, U+2028 and U+2029 escaped,
// invalid UTF-8 replaced by U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// ChainHash returns h_n = sha256(h_{n-1} ‖ canonical(e)) as hex. The genesis
// previous hash is the empty string.
func ChainHash(prev string, e Event) string {
	var c Chainer
	return c.Next(prev, e)
}

// Chainer computes ChainHash for one event after another, reusing its
// buffer: a replay hashes every event, and the canonical bytes were the
// largest allocation of a rebuild. A Chainer is not safe for concurrent use.
type Chainer struct{ buf []byte }

// Next returns ChainHash(prev, e).
func (c *Chainer) Next(prev string, e Event) string {
	if need := len(prev) + len(e.Raw) + len(e.AuthVia) + 1024; cap(c.buf) < need {
		c.buf = make([]byte, 0, need)
	}
	c.buf = appendCanonical(append(c.buf[:0], prev...), e)
	sum := sha256.Sum256(c.buf)
	if cap(c.buf) > 1<<20 {
		c.buf = nil // an outsized event does not pin its buffer
	}
	return hex.EncodeToString(sum[:])
}
