package events_test

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/crossrank/crossrank/events"
)

// TestDecodeDetachesAttributes decodes an event whose header values are
// substrings of one header block, as nats.go hands them out, and checks
// that no attribute of the event points into that block: a cache keeping
// an event id must not keep the message's whole header alive.
func TestDecodeDetachesAttributes(t *testing.T) {
	at := time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)
	e, err := events.New(events.NewID(at), at, "alice", "p1", samples[events.TypeVoteCast])
	if err != nil {
		t.Fatal(err)
	}
	e.CorrelationID, e.CausationID = "corr-1", "cause-1"
	e.AuthVia = events.Via{Method: events.ViaSession}.String()
	subject, h, body, err := events.Encode(e)
	if err != nil {
		t.Fatal(err)
	}
	var block strings.Builder
	for _, vs := range h {
		block.WriteString(vs[0])
	}
	all := block.String()
	shared := events.Header{}
	for k, vs := range h {
		i := strings.Index(all, vs[0])
		shared[k] = []string{all[i : i+len(vs[0])]}
	}
	got, err := events.Decode(subject, shared, body, 7)
	if err != nil {
		t.Fatal(err)
	}
	lo := uintptr(unsafe.Pointer(unsafe.StringData(all)))
	hi := lo + uintptr(len(all))
	for name, v := range map[string]string{"id": got.ID, "source": got.Source, "type": got.Type, "stored type": got.StoredType,
		"subject": got.Subject, "actor": got.Actor, "authvia": got.AuthVia, "datacontenttype": got.DataContentType,
		"correlationid": got.CorrelationID, "causationid": got.CausationID} {
		if p := uintptr(unsafe.Pointer(unsafe.StringData(v))); v != "" && p >= lo && p < hi {
			t.Errorf("%s %q points into the header block", name, v)
		}
	}
	if got.ID != e.ID || got.Actor != "alice" || got.Subject != "p1" || got.CausationID != "cause-1" {
		t.Errorf("decoded %+v", got)
	}
}
