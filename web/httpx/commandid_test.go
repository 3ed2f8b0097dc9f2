package httpx

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestCommandID(t *testing.T) {
	now := time.Now()
	fresh, _ := CommandID("alice", "", now)
	if !isUUID(fresh) {
		t.Errorf("fresh id %q", fresh)
	}
	uuid := "01890a5d-ac96-774b-bcce-b302099a8057"
	if got, _ := CommandID("alice", uuid, now); got != uuid {
		t.Errorf("a UUID key became %q", got)
	}
	a1, _ := CommandID("alice", "order-42", now)
	a2, _ := CommandID("alice", "order-42", now.Add(time.Hour))
	b1, _ := CommandID("bob", "order-42", now)
	if a1 != a2 || a1 == b1 || !isUUID(a1) {
		t.Errorf("derived ids: %q %q %q", a1, a2, b1)
	}
	for _, bad := range []string{strings.Repeat("k", 256), "has space", "naïve"} {
		if _, err := CommandID("alice", bad, now); Status(err) != http.StatusBadRequest {
			t.Errorf("key %.20q: %v", bad, err)
		}
	}
}
