package webtest

import (
	"bufio"
	"net/http"
	"strings"
	"testing"
	"time"
)

// SSEEvent is one server-sent event as read off the wire.
type SSEEvent struct {
	ID, Name, Data string
	At             time.Time // when it was read
}

// ReadSSE sends the events of an open stream to a channel, closed when the
// stream ends.
func ReadSSE(t *testing.T, res *http.Response) <-chan SSEEvent {
	out := make(chan SSEEvent, 16)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(res.Body)
		var ev SSEEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.Name != "" {
					ev.At = time.Now()
					out <- ev
				}
				ev = SSEEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.ID = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.Name = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.Data = line[6:]
			}
		}
	}()
	return out
}
