package site_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/webtest"
)

// record takes a worker's command result and waits for the read
// models to show it.
func (e *siteEnv) record(seq uint64, err error) {
	e.T.Helper()
	if err != nil {
		e.T.Fatal(err)
	}
	if err := e.Read.WaitFor(e.Ctx, seq); err != nil {
		e.T.Fatal(err)
	}
}

// TestEntryShowsLateEvidenceResults publishes two evidence items, caches
// the entry page and the API, and then records a capture and, a month
// later, a changed source without the quote and a dead one: each result
// reaches the cached page and the API with a new ETag, and the drift shows
// in both languages with the re-check's day.
func TestEntryShowsLateEvidenceResults(t *testing.T) {
	t.Parallel()
	copies := webtest.Shelf{}
	key := copies.Put("<p>RTX 4090</p>", "text/html", "https://example.org/ppio", webtest.Fetched)
	e := newSiteEnvWith(t, func(c *web.Config) { c.Captures = copies })
	changedID := e.CrossValidate("ppio", "gpu-coverage", 4, domain.AddEvidence{Claim: events.Text{En: "PPIO lists GPUs"},
		SourceURL: "https://example.org/ppio", Excerpt: "RTX 4090", ObservedOn: "2026-03-01"})
	deadID := e.CrossValidate("ppio", demo.CritElasticity, 3, domain.AddEvidence{Claim: events.Text{En: "A price list"},
		SourceURL: "https://example.org/prices", Excerpt: "¥1.9/h", ObservedOn: "2026-03-01"})
	e.Publish(changedID, deadID)

	const entryPage, entryAPI = "/r/gpu-cloud/e/ppio", "/api/v1/rankings/gpu-cloud/entries/ppio"
	etags := map[string]string{}
	fresh := func(step string) {
		t.Helper()
		for _, target := range []string{entryPage, entryAPI} {
			e.Get(target, "Accept-Language", "en") // fills the cache
			res, _ := e.Get(target, "Accept-Language", "en")
			tag := res.Header.Get("ETag")
			if res.StatusCode != http.StatusOK || tag == "" || tag == etags[target] {
				t.Errorf("%s: GET %s: %d, ETag %q (before: %q)", step, target, res.StatusCode, tag, etags[target])
			}
			etags[target] = tag
		}
	}
	fresh("after publishing")
	if e.Page(entryPage, "Accept-Language", "en").Find(`[data-testid="capture-link"], [data-testid^="drift-"]`).Length() != 0 {
		t.Fatal("a capture or drift before any was recorded")
	}

	for _, id := range []string{changedID, deadID} {
		res, err := e.Cmd.RecordCapture(e.Ctx, domain.Worker(), domain.RecordCapture{CommandID: id + "-capture", Proposal: id,
			Evidence: "e1", At: webtest.Fetched, FinalURL: "https://example.org/ppio", Status: 200, ContentType: "text/html", Size: 15,
			SHA256: key, QuoteFound: true, QuoteChecked: true})
		e.record(res.Sequence, err)
	}
	fresh("after the captures")
	found := e.Page(entryPage, "Accept-Language", "en").Find("#ev-" + changedID + "-e1")
	if got := found.Find(`[data-testid="capture-link"]`).AttrOr("href", ""); got != "/captures/"+key {
		t.Errorf("archived copy link after a late capture: %q", got)
	}

	later := webtest.Fetched.AddDate(0, 1, 0)
	newSHA := strings.Repeat("cd", 32)
	res, err := e.Cmd.RecordRecheck(e.Ctx, domain.Worker(), domain.RecordRecheck{CommandID: changedID + "-recheck", Proposal: changedID,
		Evidence: "e1", Tick: "1@t", At: later, FinalURL: "https://example.org/ppio", Status: 200, ContentType: "text/html",
		Size: 30, SHA256: newSHA, QuoteChecked: true})
	e.record(res.Sequence, err)
	res, err = e.Cmd.RecordRecheck(e.Ctx, domain.Worker(), domain.RecordRecheck{CommandID: deadID + "-recheck", Proposal: deadID,
		Evidence: "e1", Tick: "1@t", At: later, Dead: domain.DeadGone, Status: 410})
	e.record(res.Sequence, err)
	fresh("after the re-checks")

	for lang, want := range map[string][2]string{
		"en": {"source changed since it was cited; quote no longer found (checked 2 Apr 2026)",
			"source no longer available (checked 2 Apr 2026)"},
		"zh-CN": {"来源自引用后已变更，已找不到引文（2026年4月2日 核查）", "来源已无法访问（2026年4月2日 核查）"},
	} {
		doc := e.Page(entryPage, "Accept-Language", lang)
		if got := doc.Find("#ev-" + changedID + "-e1 [data-testid=drift-quote-lost]").Text(); got != want[0] {
			t.Errorf("%s: changed source %q, want %q", lang, got, want[0])
		}
		if got := doc.Find("#ev-" + deadID + "-e1 [data-testid=drift-dead]").Text(); got != want[1] {
			t.Errorf("%s: dead source %q, want %q", lang, got, want[1])
		}
	}
	// Evidence whose source never drifted shows none.
	if doc := e.Page("/r/gpu-cloud/e/zhixingyun", "Accept-Language", "en"); doc.Find(`[data-testid^="drift-"]`).Length() != 0 {
		t.Error("evidence without drift shows some")
	}

	var entry struct {
		Scores []struct {
			Criterion string `json:"criterion"`
			Evidence  []struct {
				Drift *json.RawMessage `json:"drift"`
			} `json:"evidence"`
		} `json:"scores"`
	}
	_, body := e.Get(entryAPI)
	if err := json.Unmarshal([]byte(body), &entry); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range entry.Scores {
		for _, ev := range s.Evidence {
			if ev.Drift != nil {
				var b bytes.Buffer
				if err := json.Compact(&b, *ev.Drift); err != nil {
					t.Fatal(err)
				}
				got[s.Criterion] = b.String()
			}
		}
	}
	at := later.Format(time.RFC3339)
	want := map[string]string{
		"gpu-coverage":      `{"state":"changed","checked_at":"` + at + `","sha256":"` + newSHA + `","status":200,"quote_found":false}`,
		demo.CritElasticity: `{"state":"dead","checked_at":"` + at + `","sha256":"` + key + `","status":410,"reason":"gone"}`,
	}
	if len(got) != len(want) || got["gpu-coverage"] != want["gpu-coverage"] || got[demo.CritElasticity] != want[demo.CritElasticity] {
		t.Errorf("API drift:\n got %v\nwant %v", got, want)
	}
	if strings.Count(body, `"drift"`) != 2 {
		t.Errorf("API: evidence without drift carries some: %s", body)
	}
}
