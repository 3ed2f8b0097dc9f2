package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/command"
)

// streamHolds reports whether any stored event's body or headers hold s.
func (e *reportEnv) streamHolds(s string) bool {
	e.T.Helper()
	found := false
	if err := e.Store.Replay(e.Ctx, 1, func(ev events.Event) error {
		if bytes.Contains(ev.Raw, []byte(s)) || strings.Contains(ev.Actor+ev.AuthVia+ev.Subject, s) {
			found = true
		}
		return nil
	}); err != nil {
		e.T.Fatal(err)
	}
	return found
}

const reportsAPI = "/api/v1/rankings/" + demo.RankingSlug + "/reports"

// TestReportIntake: a reader without an account reports through the form
// and through the JSON API; the text is an event, the contact address is
// only in the contacts bucket, and erasing it leaves nothing.
func TestReportIntake(t *testing.T) {
	e := newReportEnv(t)
	contact := "reader-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.org"

	form := url.Values{"kind": {"wrong"}, "criterion": {"gpu-coverage"}, "text": {"PPIO 的 GPU 型号已更新"}, "contact": {contact}}
	res, _ := e.Post("/r/"+demo.RankingSlug+"/e/ppio/reports", "192.0.2.1", form)
	if res.StatusCode != http.StatusSeeOther || !strings.HasSuffix(res.Header.Get("Location"), "/e/ppio#report-sent") {
		t.Fatalf("form: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	res, body := e.Post(reportsAPI, "192.0.2.2", map[string]string{"entry": "ppio", "kind": "outdated", "text": "The price list moved."})
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("api: %d %s", res.StatusCode, body)
	}
	var created command.ReportCreated
	if err := json.Unmarshal([]byte(body), &created); err != nil || !strings.HasPrefix(created.ID, "rp-") || created.Folded {
		t.Fatalf("api answered %s (%v)", body, err)
	}
	// The same report again within the window folds into the first.
	res, body = e.Post(reportsAPI, "192.0.2.3", map[string]string{"entry": "ppio", "kind": "outdated", "text": "The price list moved."})
	var again command.ReportCreated
	if err := json.Unmarshal([]byte(body), &again); err != nil || res.StatusCode != http.StatusCreated || again.ID != created.ID || !again.Folded {
		t.Fatalf("resent: %d %s, want folded into %s", res.StatusCode, body, created.ID)
	}
	e.CaughtUp()
	rows, total, err := e.Read.ReportPage(e.Ctx, projectionsFilter(demo.RankingSlug, ""), 10, 0)
	if err != nil || total != 2 {
		t.Fatalf("reports: %d (%v), want 2", total, err)
	}
	var formID string
	for _, r := range rows {
		if r.ID == created.ID && r.Folded != 1 {
			t.Errorf("folded %d times, want 1", r.Folded)
		}
		if r.Kind == "wrong" {
			formID = r.ID
		}
	}
	if e.streamHolds(contact) {
		t.Fatal("the contact address is in the event stream")
	}
	if !e.streamHolds("PPIO 的 GPU 型号已更新") {
		t.Fatal("the report's text is not in the event stream")
	}
	n, err := e.Contacts.Erase(e.Ctx, formID)
	if err != nil || n != 1 {
		t.Fatalf("erase: %d, %v; want the one address", n, err)
	}
	if n, _ := e.Contacts.Erase(e.Ctx, formID); n != 0 {
		t.Fatalf("erased twice: %d addresses left", n)
	}
}

// TestReportRefusals: bad reports are refused clearly and store nothing.
func TestReportRefusals(t *testing.T) {
	e := newReportEnv(t)
	good := func() map[string]string { return map[string]string{"entry": "ppio", "kind": "wrong", "text": "wrong"} }
	with := func(k, v string) map[string]string { m := good(); m[k] = v; return m }
	e.CaughtUp()
	before, _ := e.Store.LastSequence(e.Ctx)
	tests := []struct {
		name   string
		target string
		body   any
		status int
		field  string
	}{
		{"unknown entry", reportsAPI, with("entry", "no-such-entry"), 404, ""},
		{"unknown ranking", "/api/v1/rankings/no-such-ranking/reports", good(), 404, ""},
		{"empty text", reportsAPI, with("text", " "), 422, "text"},
		{"long text", reportsAPI, with("text", strings.Repeat("长", 4001)), 422, "text"},
		{"bad kind", reportsAPI, with("kind", "rude"), 422, "kind"},
		{"unknown criterion", reportsAPI, with("criterion", "nope"), 422, "criterion"},
		{"long contact", reportsAPI, with("contact", strings.Repeat("a", 300)), 422, "contact"},
		{"too large", reportsAPI, []byte(`{"entry":"ppio","kind":"wrong","text":"` + strings.Repeat("a", 40<<10) + `"}`), 413, ""},
		{"duplicate key", reportsAPI, []byte(`{"entry":"ppio","entry":"ppio","kind":"wrong","text":"a"}`), 400, "entry"},
		{"invalid UTF-8", reportsAPI, []byte("{\"entry\":\"ppio\",\"kind\":\"wrong\",\"text\":\"\xff\"}"), 400, ""},
	}
	for i, tc := range tests {
		res, body := e.Post(tc.target, "198.51.100."+strconv.Itoa(i+1), tc.body, "Accept-Language", "zh-CN")
		if res.StatusCode != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, res.StatusCode, body, tc.status)
			continue
		}
		if tc.field != "" && !strings.Contains(body, `"`+tc.field+`"`) {
			t.Errorf("%s: the problem does not name %s: %s", tc.name, tc.field, body)
		}
	}
	// A robot filling the honeypot is answered as a reader, and stored nowhere.
	res, _ := e.Post("/r/"+demo.RankingSlug+"/e/ppio/reports", "203.0.113.9",
		url.Values{"kind": {"wrong"}, "text": {"buy now"}, command.HoneypotField: {"https://spam.example"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("honeypot: %d", res.StatusCode)
	}
	// Another origin cannot post a reader's form.
	r := httptest.NewRequest(http.MethodPost, "/r/"+demo.RankingSlug+"/e/ppio/reports",
		strings.NewReader(url.Values{"kind": {"wrong"}, "text": {"x"}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Sec-Fetch-Site", "cross-site")
	w := httptest.NewRecorder()
	e.Srv.Handler().ServeHTTP(w, r)
	if w.Code != http.StatusForbidden {
		t.Errorf("cross-origin form: %d, want 403", w.Code)
	}
	if after, _ := e.Store.LastSequence(e.Ctx); after != before {
		t.Fatalf("refused reports stored %d events", after-before)
	}
}

// TestReportThrottle: one address sending many reports is refused with 429
// and Retry-After, in its language, and nothing past the limit is stored;
// another address is not held back.
func TestReportThrottle(t *testing.T) {
	e := newReportEnv(t)
	e.CaughtUp()
	before, _ := e.Store.LastSequence(e.Ctx)
	accepted := 0
	var last *http.Response
	var lastBody string
	for i := range 30 {
		res, body := e.Post(reportsAPI, "192.0.2.77", map[string]string{"entry": "ppio", "kind": "other", "text": "report " + strconv.Itoa(i)},
			"Accept-Language", "zh-CN")
		if res.StatusCode == http.StatusCreated {
			accepted++
			continue
		}
		last, lastBody = res, body
	}
	if accepted == 0 || accepted >= 30 || last == nil {
		t.Fatalf("%d of 30 accepted; want the first few only", accepted)
	}
	if last.StatusCode != http.StatusTooManyRequests || last.Header.Get("Retry-After") == "" {
		t.Fatalf("refused with %d, Retry-After %q", last.StatusCode, last.Header.Get("Retry-After"))
	}
	if !strings.Contains(lastBody, "报告过多") {
		t.Errorf("the refusal is not in Chinese: %s", lastBody)
	}
	after, _ := e.Store.LastSequence(e.Ctx)
	if int(after-before) != accepted {
		t.Fatalf("%d events stored for %d accepted reports", after-before, accepted)
	}
	if res, body := e.Post(reportsAPI, "192.0.2.78", map[string]string{"entry": "ppio", "kind": "other", "text": "another reader"}); res.StatusCode != http.StatusCreated {
		t.Fatalf("another address: %d %s", res.StatusCode, body)
	}
}

func projectionsFilter(ranking, status string) projections.ReportFilter {
	return projections.ReportFilter{Ranking: ranking, Status: status}
}
