package web

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
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

func TestPublicEventStream(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	// A write timeout far shorter than the test: the stream must extend
	// its own deadline to outlive it.
	ts := httptest.NewUnstartedServer(e.srv.Handler())
	ts.Config.WriteTimeout = 500 * time.Millisecond
	ts.Start()
	defer ts.Close()
	mark, _ := e.read.EditionMark(e.ctx, "")

	open := func(query string, header ...string) (*http.Response, <-chan sseEvent) {
		t.Helper()
		ctx, cancel := context.WithCancel(e.ctx)
		t.Cleanup(cancel)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/events"+query, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("GET /events: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
		}
		return res, readSSE(t, res)
	}
	_, live := open("?since=" + strconv.FormatUint(mark.Seq, 10))
	_, fresh := open("") // no position: from now on
	_, behind := open("?since=0")
	_, resumed := open("?since=0", "Last-Event-ID", strconv.FormatUint(mark.Seq, 10))

	// A client that saw nothing yet gets edition 1 at once.
	select {
	case ev := <-behind:
		if ev.name != "edition-published" || ev.data != `{"ranking":"gpu-cloud","edition":1}` || ev.id != strconv.FormatUint(mark.Seq, 10) {
			t.Errorf("catch-up event %+v", ev)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no catch-up event for a client at sequence 0")
	}

	time.Sleep(1200 * time.Millisecond) // past the server's write timeout
	e.vote()                            // commits, publishes nothing
	start := time.Now()
	e.publish("demo-qingjiao-2")
	published := time.Now()
	for name, ch := range map[string]<-chan sseEvent{"live": live, "fresh": fresh, "behind": behind, "resumed": resumed} {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatalf("%s: stream closed (write deadline not extended?)", name)
			}
			var d struct {
				Ranking string `json:"ranking"`
				Edition int    `json:"edition"`
			}
			if err := json.Unmarshal([]byte(ev.data), &d); err != nil || ev.name != "edition-published" || d.Ranking != "gpu-cloud" || d.Edition != 2 {
				t.Errorf("%s: event %+v", name, ev)
			}
			t.Logf("%s: edition 2 announced %v after the publish began (publish and projection took %v)", name,
				ev.at.Sub(start).Round(time.Millisecond), published.Sub(start).Round(time.Millisecond))
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no edition-published event within 5s", name)
		}
	}
	// Nothing else arrives: the vote announced nothing, edition 2 came once.
	select {
	case ev := <-live:
		t.Errorf("unexpected event %+v", ev)
	case <-time.After(300 * time.Millisecond):
	}

	// CloseStreams ends every stream, for a prompt shutdown.
	e.srv.CloseStreams()
	select {
	case _, ok := <-live:
		if ok {
			t.Error("an event after CloseStreams")
		}
	case <-time.After(5 * time.Second):
		t.Error("the stream outlived CloseStreams")
	}
}
