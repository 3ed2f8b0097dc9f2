package events_test

import (
	"testing"

	"github.com/crossrank/crossrank/events"
)

// TestNamedIDsKeepTheirValues pins ids the three places that hashed names
// into UUIDs wrote before they shared events.NamedID and events.KeyedID
// (the capture worker, the scheduler, an Idempotency-Key): a changed id
// would store a retried command a second time.
func TestNamedIDsKeepTheirValues(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{events.NamedID("crossrank capture\x00" + "0190aaaa-0000-7000-8000-000000000001" + "\x00" + "e1"), "cfafc71c-5d60-8f00-aa18-aa94bb83cabe"},
		{events.NamedID("crossrank scheduled edition\x00" + "gpu-cloud" + "\x00" + "0190aaaa-0000-7000-8000-000000000002"), "3f199ef3-bc13-8087-b387-091db33f7de2"},
		{events.KeyedID("crossrank idempotency key\x00" + "alice" + "\x00" + "retry-1"), "ca26974e-2882-8b5e-ade0-1044a58024c8"},
		{events.KeyedID("crossrank idempotency key\x00" + "alice" + "\x00" + "order-42"), "48029868-4e3b-8e81-a95f-d046bcb81446"},
		{events.KeyedID("crossrank idempotency key\x00" + "alice" + "\x00" + "x"), "d06680b3-95e5-8947-9623-8979cdd2478e"},
	} {
		if c.got != c.want {
			t.Errorf("id %s, want %s (as stored before)", c.got, c.want)
		}
	}
}
