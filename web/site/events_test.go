package site_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/web/webtest"
)

func TestPublicEventStream(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	// A write timeout far shorter than the test: the stream must extend
	// its own deadline to outlive it.
	ts := httptest.NewUnstartedServer(e.Srv.Handler())
	ts.Config.WriteTimeout = 500 * time.Millisecond
	ts.Start()
	defer ts.Close()
	mark, _ := e.Read.EditionMark(e.Ctx, "")

	open := func(query string, header ...string) (*http.Response, <-chan webtest.SSEEvent) {
		t.Helper()
		ctx, cancel := context.WithCancel(e.Ctx)
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
		return res, webtest.ReadSSE(t, res)
	}
	_, live := open("?since=" + strconv.FormatUint(mark.Seq, 10))
	_, fresh := open("") // no position: from now on
	_, behind := open("?since=0")
	_, resumed := open("?since=0", "Last-Event-ID", strconv.FormatUint(mark.Seq, 10))

	// A client that saw nothing yet gets edition 1 at once.
	select {
	case ev := <-behind:
		if ev.Name != "edition-published" || ev.Data != `{"ranking":"gpu-cloud","edition":1}` || ev.ID != strconv.FormatUint(mark.Seq, 10) {
			t.Errorf("catch-up event %+v", ev)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no catch-up event for a client at sequence 0")
	}

	time.Sleep(1200 * time.Millisecond) // past the server's write timeout
	e.Vote()                            // commits, publishes nothing
	start := time.Now()
	e.Publish("demo-qingjiao-2")
	published := time.Now()
	for name, ch := range map[string]<-chan webtest.SSEEvent{"live": live, "fresh": fresh, "behind": behind, "resumed": resumed} {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatalf("%s: stream closed (write deadline not extended?)", name)
			}
			var d struct {
				Ranking string `json:"ranking"`
				Edition int    `json:"edition"`
			}
			if err := json.Unmarshal([]byte(ev.Data), &d); err != nil || ev.Name != "edition-published" || d.Ranking != "gpu-cloud" || d.Edition != 2 {
				t.Errorf("%s: event %+v", name, ev)
			}
			t.Logf("%s: edition 2 announced %v after the publish began (publish and projection took %v)", name,
				ev.At.Sub(start).Round(time.Millisecond), published.Sub(start).Round(time.Millisecond))
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
	e.Srv.CloseStreams()
	select {
	case _, ok := <-live:
		if ok {
			t.Error("an event after CloseStreams")
		}
	case <-time.After(5 * time.Second):
		t.Error("the stream outlived CloseStreams")
	}
}
