package desk_test

import (
	"encoding/json"
	"fmt"
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

// TestDeskWebhookDeliveriesPage lists 3,000 delivery records a page at a
// time: the count, the newest first on page 1, the oldest alone on the last
// page, and the page in the URL.
func TestDeskWebhookDeliveriesPage(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	const hook, n = "wh-0123456789abcdef0123456789abcdef", 3001
	var last uint64
	for i := 0; i < n; {
		var evs []events.Event
		for ; i < n && len(evs) < 500; i++ {
			now := e.Cmd.Now()
			ev, err := events.New(events.NewID(now), now, domain.SystemActor, hook, &events.WebhookDelivered{
				URL: fmt.Sprintf("https://receiver.example/hook/%d", i), Ranking: demo.RankingSlug, Edition: 1, Status: 204, Attempts: 1})
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, ev)
		}
		seq, err := e.Store.Append(e.Ctx, []events.Expectation{{Aggregate: domain.WebhookID(hook), LastSeq: last}}, evs...)
		if err != nil {
			t.Fatal(err)
		}
		last = seq
	}
	e.CaughtUp()
	c := e.Client("pat")
	doc := e.Get(c, paths.Webhooks, http.StatusOK)
	rows := doc.Find(`[data-testid^="delivery-"]`)
	if rows.Length() != 100 || !strings.Contains(rows.First().Text(), fmt.Sprintf("/hook/%d", n-1)) {
		t.Fatalf("page 1: %d rows, first %q", rows.Length(), rows.First().Find("code").Text())
	}
	if got := doc.Find(`[data-testid="webhooks-count"]`).Text(); got != fmt.Sprintf("1–100 of %d", n) {
		t.Errorf("count %q", got)
	}
	lastHref := doc.Find(`[data-testid="page-31"]`).AttrOr("href", "")
	if lastHref != paths.Webhooks+"?page=31" {
		t.Fatalf("last page link %q", lastHref)
	}
	doc = e.Get(c, lastHref, http.StatusOK)
	rows = doc.Find(`[data-testid^="delivery-"]`)
	if rows.Length() != 1 || !strings.Contains(rows.Text(), "/hook/0") {
		t.Errorf("last page: %d rows %q", rows.Length(), rows.Text())
	}
	if got := doc.Find(`[data-testid="webhooks-count"]`).Text(); got != fmt.Sprintf("3001–3001 of %d", n) {
		t.Errorf("last page count %q", got)
	}

	// The API pages the same log, 200 a page, with the count.
	for _, p := range []struct {
		query       string
		rows, pages int
		first       string
	}{{"", 200, 16, fmt.Sprintf("/hook/%d", n-1)}, {"?page=16", 1, 16, "/hook/0"}} {
		var out struct {
			Deliveries []struct {
				URL string `json:"url"`
			} `json:"deliveries"`
			Total int `json:"total"`
			Pages int `json:"pages"`
		}
		res, body := c.Do(http.MethodGet, "/api/v1/webhooks/deliveries"+p.query, nil, nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("API deliveries%s: %d", p.query, res.StatusCode)
		}
		if err := json.Unmarshal([]byte(body), &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Deliveries) != p.rows || out.Total != n || out.Pages != p.pages || !strings.HasSuffix(out.Deliveries[0].URL, p.first) {
			t.Errorf("API deliveries%s: %d rows of %d in %d pages, first %s", p.query, len(out.Deliveries), out.Total, out.Pages, out.Deliveries[0].URL)
		}
	}
	if res, _ := c.Do(http.MethodGet, "/api/v1/webhooks/deliveries?page=17", nil, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("API deliveries past the last page: %d", res.StatusCode)
	}
}

// TestDeskSearch finds the demo's entries by two and three Chinese
// characters and by English, evidence by its excerpt, on the desk page and through GET /api/v1/search; signed out, the
// API answers 401, and a bad kind or page names the field.
func TestDeskSearch(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	c := e.Client("ed")
	for _, q := range []string{"星云", "智星云", "ZhiXing"} {
		doc := e.Get(c, paths.Search+"?q="+url.QueryEscape(q), http.StatusOK)
		hits := doc.Find(`[data-testid="search-entry"] [data-testid="search-hit"]`)
		if hits.Length() != 1 || !strings.Contains(hits.Find("a").AttrOr("href", ""), "/zhixingyun") {
			t.Errorf("desk search %q: %d entry hits %q", q, hits.Length(), hits.Text())
		}
	}
	var res struct {
		Total int `json:"total"`
		Hits  []struct {
			Entry    string            `json:"entry"`
			Name     map[string]string `json:"name"`
			Proposal string            `json:"proposal"`
		} `json:"hits"`
	}
	apiJSONGet(t, c, "/api/v1/search?q="+url.QueryEscape("星云"), http.StatusOK, &res)
	if res.Total != 1 || res.Hits[0].Entry != "zhixingyun" || res.Hits[0].Name["zh"] != "智星云" {
		t.Errorf("API entry search: %+v", res)
	}
	apiJSONGet(t, c, "/api/v1/search?kind=evidence&q="+url.QueryEscape("裸金属"), http.StatusOK, &res)
	if res.Total == 0 || res.Hits[0].Proposal == "" {
		t.Errorf("API evidence search: %+v", res)
	}
	if r, _ := e.Client("").Do(http.MethodGet, "/api/v1/search?q=x", nil, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("signed out: %d", r.StatusCode)
	}
	for target, want := range map[string]int{
		"/api/v1/search?q=x&kind=users": http.StatusUnprocessableEntity,
		"/api/v1/search?q=x&page=0":     http.StatusBadRequest,
		"/api/v1/search?q=":             http.StatusUnprocessableEntity,
	} {
		if r, body := c.Do(http.MethodGet, target, nil, nil); r.StatusCode != want {
			t.Errorf("%s: %d, want %d: %s", target, r.StatusCode, want, body)
		}
	}
}

// apiJSONGet GETs target and decodes its JSON into out.
func apiJSONGet(t *testing.T, c *webtest.Client, target string, want int, out any) {
	t.Helper()
	res, body := c.Do(http.MethodGet, target, nil, nil)
	if res.StatusCode != want {
		t.Fatalf("GET %s: status %d, want %d; body %.500s", target, res.StatusCode, want, body)
	}
	if err := json.Unmarshal([]byte(body), out); err != nil {
		t.Fatalf("GET %s: %v", target, err)
	}
}
