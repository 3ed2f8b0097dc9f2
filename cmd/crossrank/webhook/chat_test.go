package webhook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/webhook"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go/jetstream"
)

// chatReceiver is an incoming webhook: it takes Slack's shape, a JSON
// object with one "text" string, and nothing else.
type chatReceiver struct {
	mu    sync.Mutex
	texts []string
	bad   int
}

func (rc *chatReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var msg struct {
		Text string `json:"text"`
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if err := dec.Decode(&msg); err != nil || msg.Text == "" || r.Header.Get("Content-Type") != "application/json" ||
		r.URL.Path != "/hooks/T0/B0/secret" {
		rc.bad++
		http.Error(w, "invalid_payload", http.StatusBadRequest)
		return
	}
	rc.texts = append(rc.texts, msg.Text)
	_, _ = io.WriteString(w, "ok")
}

func (rc *chatReceiver) got() []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]string(nil), rc.texts...)
}

// chat starts a Chat for the demo ranking's webhook at url and waits until
// its consumer listens.
func (w *world) chat(url string, cfg webhook.ChatConfig) {
	w.t.Helper()
	publisher := domain.Actor{Name: "publisher", Roles: []string{domain.RolePublisher}}
	if _, err := w.cmd.SetChatWebhook(w.ctx, publisher, domain.SetChatWebhook{CommandID: events.NewID(time.Now()),
		Ranking: demo.RankingSlug, URL: url, Lang: "en"}); err != nil {
		w.t.Fatal(err)
	}
	nc, err := w.env.Server.Connect("chat-test")
	if err != nil {
		w.t.Fatal(err)
	}
	cfg.Commands, cfg.PublicURL, cfg.Backoff = w.cmd, "https://rank.example", 50*time.Millisecond
	c, err := webhook.NewChat(nc, w.env.Store, cfg)
	if err != nil {
		w.t.Fatal(err)
	}
	ctx, stop := context.WithCancel(w.ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = c.Run(ctx) }()
	w.t.Cleanup(func() { stop(); <-done; nc.Close() })
	js, _ := jetstream.New(nc)
	waitFor(w.t, "the chat consumer", 10*time.Second, func() bool {
		_, err := js.Consumer(w.ctx, crjs.StreamName, webhook.ChatConsumer)
		return err == nil
	})
}

// records returns the chat records of the webhook at url.
func (w *world) chatRecords(url string) (posted []*events.ChatPosted, failed []*events.ChatFailed) {
	w.t.Helper()
	evs, err := w.env.Store.Load(w.ctx, domain.WebhookID(webhook.AggregateID(url)), 0)
	if err != nil {
		w.t.Fatal(err)
	}
	for _, e := range evs {
		switch d := e.Data.(type) {
		case *events.ChatPosted:
			posted = append(posted, d)
		case *events.ChatFailed:
			failed = append(failed, d)
		}
	}
	return posted, failed
}

func TestChatWebhookHearsRequestsAndPublications(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rc := &chatReceiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	url := srv.URL + "/hooks/T0/B0/secret"
	w.chat(url, webhook.ChatConfig{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}})

	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	if _, err := w.cmd.RequestReviewers(w.ctx, editor, domain.RequestReviewers{CommandID: events.NewID(time.Now()),
		Proposal: "demo-huawei-cloud-2", Reviewers: []string{"reviewer2"}, Due: time.Now().Add(48 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	w.publish("demo-qingjiao-2")
	waitFor(t, "two chat messages", 15*time.Second, func() bool {
		posted, _ := w.chatRecords(url)
		return len(posted) == 2
	})
	texts := rc.got()
	if len(texts) != 2 || rc.bad != 0 {
		t.Fatalf("received %q (%d refused), want two messages", texts, rc.bad)
	}
	if !strings.Contains(texts[0], "editor asked reviewer2 to review") || !strings.Contains(texts[0], "https://rank.example/desk/proposals/demo-huawei-cloud-2") ||
		!strings.Contains(texts[0], " by ") {
		t.Errorf("the request's message: %q", texts[0])
	}
	if !strings.Contains(texts[1], "Edition 2 of") || !strings.Contains(texts[1], "https://rank.example/r/"+demo.RankingSlug+"/editions/2") {
		t.Errorf("the publication's message: %q", texts[1])
	}
	posted, _ := w.chatRecords(url)
	for _, p := range posted {
		if strings.Contains(p.URL, "secret") || p.Status != http.StatusOK {
			t.Errorf("record %+v: the URL's path is its secret and must not be kept", p)
		}
	}
}

func TestChatWebhookRefusesPrivateAddresses(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rc := &chatReceiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	url := srv.URL + "/hooks/T0/B0/secret"
	w.chat(url, webhook.ChatConfig{MaxAttempts: 1}) // loopback not allowed
	w.publish("demo-qingjiao-2")
	waitFor(t, "the failure's record", 15*time.Second, func() bool {
		_, failed := w.chatRecords(url)
		return len(failed) == 1
	})
	_, failed := w.chatRecords(url)
	if !strings.Contains(failed[0].Error, "not allowed") || len(rc.got()) != 0 {
		t.Errorf("failure %+v, received %q: want the address refused and nothing received", failed[0], rc.got())
	}
}
