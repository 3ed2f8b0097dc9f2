package webhook_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
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

// whsec is a Standard Webhooks secret: whsec_ and a base64 key.
const whsec = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// verifyStandard checks a delivery the way the Standard Webhooks 1.0
// specification describes, written from the spec rather than from the
// sender: decode the key after whsec_, sign "msg_id.timestamp.payload"
// with HMAC-SHA256, base64 it, compare constant-time with each
// space-separated "v1,<sig>" of webhook-signature, and refuse a timestamp
// more than five minutes from now (either way).
func verifyStandard(secret string, h http.Header, body []byte, now time.Time) (id string, err error) {
	id, ts, sigs := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	if id == "" || ts == "" || sigs == "" {
		return "", errors.New("missing headers")
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return "", errors.New("bad timestamp")
	}
	if d := now.Sub(time.Unix(sec, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return "", errors.New("timestamp outside the tolerance")
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + ts + "." + string(body)))
	want := m.Sum(nil)
	for _, s := range strings.Fields(sigs) {
		version, sig, ok := strings.Cut(s, ",")
		got, err := base64.StdEncoding.DecodeString(sig)
		if ok && version == "v1" && err == nil && hmac.Equal(got, want) {
			return id, nil
		}
	}
	return "", errors.New("no matching signature")
}

// standardReceiver accepts each message id once: a second delivery with
// an id it has seen is a replay, answered 2xx (the spec's advice: the
// sender must stop) and not processed.
type standardReceiver struct {
	mu       sync.Mutex
	now      func() time.Time
	seen     map[string]int
	replays  int
	rejected []string
	last     *http.Request
	lastBody []byte
}

func (rc *standardReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	id, err := verifyStandard(whsec, r.Header, body, rc.now())
	if err != nil {
		rc.rejected = append(rc.rejected, err.Error())
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	if rc.seen[id] > 0 {
		rc.replays++
		w.WriteHeader(http.StatusNoContent)
		return
	}
	rc.seen[id]++
	rc.last, rc.lastBody = r, body
	w.WriteHeader(http.StatusNoContent)
}

func TestStandardWebhooksSignature(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rc := &standardReceiver{now: time.Now, seen: map[string]int{}}
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	w.sender(srv.URL, webhook.Config{Secret: whsec})
	waitFor(t, "edition 1 (the demo's)", 30*time.Second, func() bool {
		rc.mu.Lock()
		defer rc.mu.Unlock()
		return len(rc.seen) == 1
	})
	rc.mu.Lock()
	last, body := rc.last, rc.lastBody
	rejected := rc.rejected
	rc.mu.Unlock()
	if len(rejected) > 0 {
		t.Fatalf("receiver rejected: %v", rejected)
	}
	if got := last.Header.Get(webhook.SignatureHeader); got != "" {
		t.Errorf("a whsec_ secret also sent the deprecated %s: %q", webhook.SignatureHeader, got)
	}
	t.Logf("delivery headers: webhook-id: %s; webhook-timestamp: %s; webhook-signature: %s",
		last.Header.Get("webhook-id"), last.Header.Get("webhook-timestamp"), last.Header.Get("webhook-signature"))

	// Replaying the captured request: the signature still holds, the id
	// gives it away.
	replay := func(now time.Time) int {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header = last.Header.Clone()
		rec := httptest.NewRecorder()
		rc.mu.Lock()
		rc.now = func() time.Time { return now }
		rc.mu.Unlock()
		rc.ServeHTTP(rec, req)
		return rec.Code
	}
	if code := replay(time.Now()); code != http.StatusNoContent {
		t.Fatalf("replay answered %d", code)
	}
	rc.mu.Lock()
	if rc.replays != 1 || len(rc.seen) != 1 {
		t.Errorf("replays %d, ids %d; want the replay detected by its id", rc.replays, len(rc.seen))
	}
	rc.mu.Unlock()
	// Six minutes later the same request is refused outright.
	if code := replay(time.Now().Add(6 * time.Minute)); code != http.StatusUnauthorized {
		t.Errorf("a six-minute-old delivery answered %d, want 401", code)
	}
	// A changed body does not verify.
	if _, err := verifyStandard(whsec, last.Header, append(bytes.Clone(body), ' '), time.Now()); err == nil {
		t.Error("a changed body verifies")
	}
}

// TestStandardSignatureVector checks SignStandard against the Standard
// Webhooks reference vector (the spec repository's test of its libraries).
func TestStandardSignatureVector(t *testing.T) {
	t.Parallel()
	key, legacy, err := webhook.Key("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil || legacy {
		t.Fatalf("Key: legacy %v, %v", legacy, err)
	}
	got := webhook.SignStandard(key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, []byte(`{"test": 2432232314}`))
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Errorf("SignStandard = %s, want %s", got, want)
	}
	if _, _, err := webhook.Key("whsec_!!"); err == nil {
		t.Error("a whsec_ secret without base64 is accepted")
	}
	if key, legacy, _ := webhook.Key("s3cret"); !legacy || string(key) != "s3cret" {
		t.Errorf("plain secret: key %q legacy %v", key, legacy)
	}
}

// TestRedeliver asks, as a publisher, for an edition already delivered:
// the sender posts it once more with the same webhook-id (so the
// receiver sees a replay of a message it has), records the outcome, and
// a restarted sender does not post it a third time.
func TestRedeliver(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rc := &standardReceiver{now: time.Now, seen: map[string]int{}}
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	stop, _ := w.sender(srv.URL, webhook.Config{Secret: whsec})
	delivered := func() int { d, _ := w.records(srv.URL); return len(d) }
	waitFor(t, "the first delivery", 30*time.Second, func() bool { return delivered() == 1 })

	publisher := domain.Actor{Name: "publisher", Roles: []string{domain.RolePublisher}}
	ask := domain.RequestRedelivery{CommandID: events.NewID(time.Now()), Webhook: webhook.AggregateID(srv.URL),
		Ranking: demo.RankingSlug, Edition: 1}
	if _, err := w.cmd.RequestRedelivery(w.ctx, domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}, ask); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("an editor asked for a redelivery: %v, want forbidden", err)
	}
	if _, err := w.cmd.RequestRedelivery(w.ctx, publisher, domain.RequestRedelivery{CommandID: events.NewID(time.Now()),
		Webhook: ask.Webhook, Ranking: demo.RankingSlug, Edition: 9}); !errors.Is(err, domain.ErrEditionMissing) {
		t.Errorf("edition 9: %v, want missing", err)
	}
	if _, err := w.cmd.RequestRedelivery(w.ctx, publisher, ask); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the redelivery", 30*time.Second, func() bool { return delivered() == 2 })
	rc.mu.Lock()
	replays, ids := rc.replays, len(rc.seen)
	rc.mu.Unlock()
	if replays != 1 || ids != 1 {
		t.Errorf("receiver saw %d ids and %d replays; want the redelivery to carry the first delivery's id", ids, replays)
	}
	stop()
	stop, _ = w.sender(srv.URL, webhook.Config{Secret: whsec})
	time.Sleep(800 * time.Millisecond)
	stop()
	if n := delivered(); n != 2 {
		t.Errorf("%d delivery records after a restart, want 2", n)
	}
}

// TestConsumerUpgrade starts a sender over the durable consumer an older
// release left (one filter subject, editions only): the sender widens it
// to take redelivery requests too, and delivers.
func TestConsumerUpgrade(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rc := &standardReceiver{now: time.Now, seen: map[string]int{}}
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	nc, err := w.env.Server.Connect("old-release")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateOrUpdateConsumer(w.ctx, crjs.StreamName, jetstream.ConsumerConfig{
		Durable: "webhook-" + webhook.AggregateID(srv.URL)[3:19], DeliverPolicy: jetstream.DeliverAllPolicy,
		FilterSubject: webhook.FilterSubject, AckPolicy: jetstream.AckExplicitPolicy, AckWait: 30 * time.Second,
		MaxDeliver: -1, MaxAckPending: 1,
	}); err != nil {
		t.Fatal(err)
	}
	w.sender(srv.URL, webhook.Config{Secret: whsec})
	waitFor(t, "the first delivery", 30*time.Second, func() bool { d, _ := w.records(srv.URL); return len(d) == 1 })
	publisher := domain.Actor{Name: "publisher", Roles: []string{domain.RolePublisher}}
	if _, err := w.cmd.RequestRedelivery(w.ctx, publisher, domain.RequestRedelivery{CommandID: events.NewID(time.Now()),
		Webhook: webhook.AggregateID(srv.URL), Ranking: demo.RankingSlug, Edition: 1}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the redelivery", 30*time.Second, func() bool { d, _ := w.records(srv.URL); return len(d) == 2 })
}
