package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/site"
)

// shelf is an archive in memory: site.Captures is the site's own small
// interface, and the real archive's adapter lives in cmd/crossrank.
type shelf map[string]site.Capture

func (s shelf) Get(_ context.Context, key string) (site.Capture, error) {
	c, ok := s[key]
	if !ok {
		return site.Capture{}, site.ErrNoCapture
	}
	return c, nil
}

// put shelves body and returns its key.
func (s shelf) put(body, contentType, url string, fetched time.Time) string {
	sum := sha256.Sum256([]byte(body))
	key := hex.EncodeToString(sum[:])
	s[key] = site.Capture{Body: []byte(body), ContentType: contentType, Fetched: fetched, URL: url}
	return key
}

var fetched = time.Date(2026, 3, 2, 9, 30, 15, 0, time.UTC)

func TestCaptureServed(t *testing.T) {
	copies := shelf{}
	page := `<!DOCTYPE html><html><head><title>Prices</title><script>document.title="ran"</script></head>` +
		`<body class="x"><p>RTX 4090 on demand</p></body></html>`
	htmlKey := copies.put(page, "text/html; charset=gbk", "https://example.org/prices?a=1&b=2", fetched)
	textKey := copies.put("plain words", "text/plain; charset=utf-8", "https://example.org/a.txt", fetched)
	pdfKey := copies.put("%PDF-1.7 …", "application/pdf", "https://example.org/a.pdf", fetched)
	e := newSiteEnvWith(t, func(c *Config) { c.Captures = copies })

	for _, tc := range []struct {
		lang, want string
	}{
		{"en", "Archived copy of https://example.org/prices?a=1&b=2, fetched by Crossrank on 2 Mar 2026, 09:30 UTC."},
		{"zh-CN", "这是 https://example.org/prices?a=1&b=2 的存档副本，由 Crossrank 于 2026年3月2日 09:30 UTC 抓取。"},
	} {
		res, body := e.get("/captures/"+htmlKey, "Accept-Language", tc.lang)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %.300s", tc.lang, res.StatusCode, body)
		}
		h := res.Header
		if csp := h.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "sandbox;") || strings.Contains(csp, "allow-") ||
			strings.Contains(csp, "script-src") {
			t.Errorf("CSP %q: want a sandbox that allows nothing, scripts least", csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Content-Type") != "text/html; charset=gbk" {
			t.Errorf("headers: %v", h)
		}
		// The banner is ASCII (character references), so it reads right in
		// the page's own charset, and it opens the body.
		if i := strings.Index(body, `data-testid="capture-banner"`); i < strings.Index(body, `<body class="x">`) ||
			i > strings.Index(body, "<p>") {
			t.Errorf("banner not at the top of the body: %s", body)
		}
		banner := body[strings.Index(body, "<div"):strings.Index(body, "</div>")]
		for _, r := range banner {
			if r >= 0x80 {
				t.Fatalf("banner not ASCII: %s", banner)
			}
		}
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
		if got := doc.Find(`[data-testid="capture-banner"]`).Text(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s banner %q, want %q…", tc.lang, got, tc.want)
		}
		if !strings.HasSuffix(body, `<p>RTX 4090 on demand</p></body></html>`) {
			t.Errorf("the page's own bytes changed: %s", body)
		}
	}

	res, body := e.get("/captures/" + textKey)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/plain; charset=utf-8" || body != "plain words" ||
		!strings.HasPrefix(res.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("text capture: %d %v %q", res.StatusCode, res.Header, body)
	}
	res, _ = e.get("/captures/" + pdfKey)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/pdf" ||
		res.Header.Get("Content-Disposition") != `attachment; filename="`+pdfKey+`.pdf"` {
		t.Errorf("pdf capture: %d %v", res.StatusCode, res.Header)
	}

	for _, target := range []string{
		"/captures/" + strings.Repeat("0", 64), // well formed, not kept
		"/captures/" + strings.ToUpper(htmlKey),
		"/captures/" + htmlKey[:63],
		"/captures/not-a-hash",
	} {
		res, body := e.get(target, "Accept-Language", "en")
		if res.StatusCode != http.StatusNotFound || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
			!strings.Contains(body, "</html>") || strings.Contains(res.Header.Get("Content-Security-Policy"), "sandbox") {
			t.Errorf("GET %s: %d %s, want the site's 404 page", target, res.StatusCode, res.Header.Get("Content-Type"))
		}
	}
}

func TestCaptureWithoutArchive(t *testing.T) {
	e := newSiteEnv(t)
	if res, _ := e.get("/captures/" + strings.Repeat("a", 64)); res.StatusCode != http.StatusNotFound {
		t.Errorf("no archive: %d, want 404", res.StatusCode)
	}
}

// TestEntryCaptureLinks records captures on two published evidence items
// and reads the entry page and the API: Robust Links on the source, the
// quote check in both languages, and the API's capture object.
func TestEntryCaptureLinks(t *testing.T) {
	copies := shelf{}
	key := copies.put("<p>RTX 4090</p>", "text/html", "https://example.org/ppio", fetched)
	e := newSiteEnvWith(t, func(c *Config) { c.Captures = copies })
	e.crossValidate("ppio", "gpu-coverage", 4, domain.AddEvidence{Claim: "PPIO lists GPUs",
		SourceURL: "https://example.org/ppio", Excerpt: "RTX 4090", ObservedOn: "2026-03-01"})
	e.crossValidate("ppio", demo.CritElasticity, 3, domain.AddEvidence{Claim: "An archived price list",
		SourceURL: "https://web.archive.org/web/2026/https://example.org/prices", Excerpt: "¥1.9/h", ObservedOn: "2026-03-01"})
	e.publish("test-ppio-gpu-coverage", "test-ppio-"+demo.CritElasticity)
	record := func(proposal string, c domain.RecordCapture) {
		t.Helper()
		c.CommandID, c.Proposal, c.Evidence, c.At = proposal+"-capture", proposal, "e1", fetched
		res, err := e.cmd.RecordCapture(e.ctx, domain.Worker(), c)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.read.WaitFor(e.ctx, res.Sequence); err != nil {
			t.Fatal(err)
		}
	}
	record("test-ppio-gpu-coverage", domain.RecordCapture{FinalURL: "https://example.org/ppio", Status: 200,
		ContentType: "text/html", Size: 15, SHA256: key, QuoteFound: true, QuoteChecked: true})
	record("test-ppio-"+demo.CritElasticity, domain.RecordCapture{FinalURL: "https://web.archive.org/web/2026/https://example.org/prices",
		Status: 200, ContentType: "text/html", Size: 20, SHA256: strings.Repeat("b", 64), QuoteChecked: true})

	for lang, want := range map[string][2]string{
		"en":    {"quote found in the capture", "quote not found"},
		"zh-CN": {"存档中找到引文", "存档中未找到引文"},
	} {
		doc := e.page("/r/gpu-cloud/e/ppio", "Accept-Language", lang)
		found := doc.Find("#ev-test-ppio-gpu-coverage-e1")
		src := found.Find(`[data-testid="source-link"]`)
		if src.AttrOr("href", "") != "https://example.org/ppio" || src.AttrOr("data-versionurl", "") != "/captures/"+key ||
			src.AttrOr("data-versiondate", "") != "2026-03-02" {
			t.Errorf("%s: source link %v", lang, src.Nodes[0].Attr)
		}
		if got := found.Find(`[data-testid="capture-link"]`).AttrOr("href", ""); got != "/captures/"+key {
			t.Errorf("%s: archived copy link %q", lang, got)
		}
		if got := found.Find(`[data-testid="quote-found"]`).Text(); got != want[0] {
			t.Errorf("%s: quote found %q, want %q", lang, got, want[0])
		}
		missed := doc.Find("#ev-test-ppio-" + demo.CritElasticity + "-e1")
		if got := missed.Find(`[data-testid="quote-not-found"]`).Text(); got != want[1] {
			t.Errorf("%s: quote not found %q, want %q", lang, got, want[1])
		}
		if missed.Find(`[data-testid="is-archive"]`).Length() != 1 || found.Find(`[data-testid="is-archive"]`).Length() != 0 {
			t.Errorf("%s: only the web.archive.org source is marked an archive", lang)
		}
	}
	// An item without a capture keeps its link as it was.
	doc := e.page("/r/gpu-cloud/e/zhixingyun", "Accept-Language", "en")
	if doc.Find("[data-versionurl], [data-testid=capture-link], [data-testid^=quote-]").Length() != 0 {
		t.Error("evidence without a capture shows one")
	}

	var entry struct {
		Scores []struct {
			Criterion string `json:"criterion"`
			Evidence  []struct {
				Capture *json.RawMessage `json:"capture"`
			} `json:"evidence"`
		} `json:"scores"`
	}
	res, body := e.get("/api/v1/rankings/gpu-cloud/entries/ppio")
	if err := json.Unmarshal([]byte(body), &entry); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("API: %d %v", res.StatusCode, err)
	}
	got := map[string]string{}
	for _, s := range entry.Scores {
		for _, ev := range s.Evidence {
			if ev.Capture != nil {
				var b bytes.Buffer
				if err := json.Compact(&b, *ev.Capture); err != nil {
					t.Fatal(err)
				}
				got[s.Criterion] = b.String()
			}
		}
	}
	want := map[string]string{
		"gpu-coverage":      `{"sha256":"` + key + `","status":200,"fetched_at":"2026-03-02T09:30:15Z","content_type":"text/html","size":15,"quote_found":true}`,
		demo.CritElasticity: `{"sha256":"` + strings.Repeat("b", 64) + `","status":200,"fetched_at":"2026-03-02T09:30:15Z","content_type":"text/html","size":20,"quote_found":false}`,
	}
	if len(got) != len(want) || got["gpu-coverage"] != want["gpu-coverage"] || got[demo.CritElasticity] != want[demo.CritElasticity] {
		t.Errorf("API captures:\n got %v\nwant %v", got, want)
	}
	if strings.Count(body, `"capture"`) != 2 {
		t.Errorf("API: evidence without a capture carries one: %s", body)
	}
}
