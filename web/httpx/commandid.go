package httpx

import (
	"time"

	"github.com/crossrank/crossrank/events"
)

// CommandID turns the command id a client requested into the command id,
// the id of the first event the command stores: running a command again
// with the same id stores nothing new. A UUID (a form's cmd_id) is used as
// it is; any other id (an Idempotency-Key) is hashed with the user's name
// into a UUID, so two users' ids never collide. None: a fresh UUIDv7.
func CommandID(user, requested string, now time.Time) (string, error) {
	switch {
	case requested == "":
		return events.NewID(now), nil
	case isUUID(requested):
		return requested, nil
	case len(requested) > 255 || !printableASCII(requested):
		return "", &BadField{Field: "id", Code: "field.command_id"}
	}
	// The hash's prefix string stays as it is: changing it would change
	// the command id of every Idempotency-Key already stored.
	return events.KeyedID("crossrank idempotency key\x00" + user + "\x00" + requested), nil
}

// isUUID reports whether s is a UUID in canonical lowercase form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
	}
	return true
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
