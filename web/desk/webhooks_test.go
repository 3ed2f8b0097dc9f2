package desk_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestDeskWebhookRedeliver: a publisher sees the delivery log and asks
// for a redelivery, which is stored as the webhook's event for its sender
// to act on; an editor may not see the page.
func TestDeskWebhookRedeliver(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	const hook = "wh-0123456789abcdef0123456789abcdef"
	now := e.Cmd.Now()
	ev, err := events.New(events.NewID(now), now, domain.SystemActor, hook,
		&events.WebhookDelivered{URL: "https://receiver.example/hook", Ranking: demo.RankingSlug, Edition: 1, Status: 204, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Store.Append(e.Ctx, []events.Expectation{{Aggregate: domain.WebhookID(hook)}}, ev); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()

	if res, _ := e.Client("ed").Do(http.MethodGet, paths.Webhooks, nil, nil); res.StatusCode != http.StatusForbidden {
		t.Errorf("an editor got the webhook log: %d", res.StatusCode)
	}
	c := e.Client("pat")
	doc := e.Get(c, paths.Webhooks, http.StatusOK)
	rows := doc.Find(`[data-testid^="delivery-"]`)
	if rows.Length() != 1 || !strings.Contains(rows.Text(), "https://receiver.example/hook") || !strings.Contains(rows.Text(), "HTTP 204, 1 attempt)") {
		t.Fatalf("delivery rows: %d, %q", rows.Length(), rows.Text())
	}
	form := url.Values{"cmd_id": {events.NewID(e.Cmd.Now())}}
	for _, name := range []string{"webhook", "ranking", "edition"} {
		v, _ := rows.Find(`input[name="` + name + `"]`).Attr("value")
		form.Set(name, v)
	}
	before := e.LastSeq()
	status, loc, _ := e.Post(c, paths.Webhooks+"/redeliver", form)
	if status != http.StatusSeeOther || loc != paths.Webhooks+"?done=redelivery" {
		t.Fatalf("redeliver: %d → %q", status, loc)
	}
	evs, err := e.Store.Load(e.Ctx, domain.WebhookID(hook), before)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].Actor != "pat" {
		t.Fatalf("stored %d events after the form, want 1 by pat", len(evs))
	}
	if d, ok := evs[0].Data.(*events.WebhookRedeliveryRequested); !ok || d.Ranking != demo.RankingSlug || d.Edition != 1 {
		t.Errorf("stored %#v", evs[0].Data)
	}
	// An edition that does not exist is refused, and nothing is stored.
	form.Set("cmd_id", events.NewID(e.Cmd.Now()))
	form.Set("edition", "99")
	before = e.LastSeq()
	if status, _, _ := e.Post(c, paths.Webhooks+"/redeliver", form); status != http.StatusNotFound {
		t.Errorf("edition 99: %d, want 404", status)
	}
	if e.LastSeq() != before {
		t.Error("a refused redelivery stored an event")
	}
}

// TestAPIWebhookRedeliver: the delivery log and its redelivery through the
// JSON API, as on the desk: publishers only; an edition that does not
// exist is refused and nothing is stored.
func TestAPIWebhookRedeliver(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	const hook = "wh-0123456789abcdef0123456789abcdef"
	now := e.Cmd.Now()
	ev, err := events.New(events.NewID(now), now, domain.SystemActor, hook,
		&events.WebhookFailed{URL: "https://receiver.example/hook", Ranking: demo.RankingSlug, Edition: 1, Attempt: 8, Error: "HTTP 502"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Store.Append(e.Ctx, []events.Expectation{{Aggregate: domain.WebhookID(hook)}}, ev); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()

	if res, _ := e.Client("ed").Do(http.MethodGet, "/api/v1/webhooks/deliveries", nil, nil); res.StatusCode != http.StatusForbidden {
		t.Errorf("an editor got the delivery log: %d", res.StatusCode)
	}
	c := e.Client("pat")
	res, body := c.Do(http.MethodGet, "/api/v1/webhooks/deliveries", nil, nil)
	var log struct {
		Deliveries []struct {
			Webhook string `json:"webhook"`
			OK      bool   `json:"ok"`
			Edition int    `json:"edition"`
			Error   string `json:"error"`
		} `json:"deliveries"`
	}
	if res.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &log) != nil || len(log.Deliveries) != 1 ||
		log.Deliveries[0].Webhook != hook || log.Deliveries[0].OK || log.Deliveries[0].Error != "HTTP 502" {
		t.Fatalf("delivery log: %d %s", res.StatusCode, body)
	}
	before := e.LastSeq()
	if res, body := c.PostJSON("/api/v1/webhooks/redeliver", map[string]any{"webhook": hook, "ranking": demo.RankingSlug, "edition": 1}, nil); res.StatusCode/100 != 2 {
		t.Fatalf("redeliver: %d %s", res.StatusCode, body)
	}
	evs, err := e.Store.Load(e.Ctx, domain.WebhookID(hook), before)
	if err != nil || len(evs) != 1 || evs[0].Actor != "pat" {
		t.Fatalf("stored %d events (%v) after the request, want 1 by pat", len(evs), err)
	}
	before = e.LastSeq()
	if res, _ := c.PostJSON("/api/v1/webhooks/redeliver", map[string]any{"webhook": hook, "ranking": demo.RankingSlug, "edition": 99}, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("edition 99: %d, want 404", res.StatusCode)
	}
	if res, _ := e.Client("ed").PostJSON("/api/v1/webhooks/redeliver", map[string]any{"webhook": hook, "ranking": demo.RankingSlug, "edition": 1}, nil); res.StatusCode != http.StatusForbidden {
		t.Errorf("an editor's redelivery: %d, want 403", res.StatusCode)
	}
	if e.LastSeq() != before {
		t.Error("a refused redelivery stored an event")
	}
}
