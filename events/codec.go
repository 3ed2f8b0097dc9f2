package events

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
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
		Subject: h.get(HeaderSubject), Actor: h.get(HeaderActor),
		DataContentType: h.get(HeaderContentType), CorrelationID: h.get(HeaderCorrelationID),
		CausationID: h.get(HeaderCausationID), Sequence: seq,
	}
	e.StoredType = e.Type
	for _, s := range []string{e.ID, e.Source, e.Type, e.Subject, e.Actor, e.CorrelationID, e.CausationID} {
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

// Canonical returns the bytes an event is hashed over: a JSON object with
// fixed key order holding the stored type and the body exactly as stored.
// Replaying the log gives the same bytes on any machine.
func Canonical(e Event) []byte {
	var b bytes.Buffer
	b.Grow(len(e.Raw) + 256)
	b.WriteString(`{"seq":`)
	fmt.Fprintf(&b, "%d", e.Sequence)
	for _, kv := range [][2]string{
		{"id", e.ID}, {"source", e.Source}, {"type", e.StoredType}, {"subject", e.Subject},
		{"datacontenttype", e.DataContentType},
		{"time", e.Time.UTC().Format(time.RFC3339Nano)}, {"actor", e.Actor},
		{"correlationid", e.CorrelationID}, {"causationid", e.CausationID},
	} {
		b.WriteString(`,"` + kv[0] + `":`)
		s, _ := json.Marshal(kv[1])
		b.Write(s)
	}
	b.WriteString(`,"data":`)
	var compact bytes.Buffer
	if json.Compact(&compact, e.Raw) == nil {
		b.Write(compact.Bytes())
	} else {
		s, _ := json.Marshal(string(e.Raw))
		b.Write(s)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// ChainHash returns h_n = sha256(h_{n-1} ‖ canonical(e)) as hex. The genesis
// previous hash is the empty string.
func ChainHash(prev string, e Event) string {
	h := sha256.New()
	h.Write([]byte(prev))
	h.Write(Canonical(e))
	return fmt.Sprintf("%x", h.Sum(nil))
}
