package web

import (
	"bufio"
	"net/http"
	"strings"
	"testing"
	"time"
)

// sseEvent is one server-sent event as read off the wire.
type sseEvent struct {
	id, name, data string
	at             time.Time
}

// readSSE sends the events of an open stream to a channel.
func readSSE(t *testing.T, res *http.Response) <-chan sseEvent {
	out := make(chan sseEvent, 16)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(res.Body)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.name != "" {
					ev.at = time.Now()
					out <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.name = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.data = line[6:]
			}
		}
	}()
	return out
}
