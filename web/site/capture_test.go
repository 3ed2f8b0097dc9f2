package site_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestCaptureServed reads published captures: the site's own page says
// what the copy is and frames the body, which is served as it was
// archived, byte for byte, under a sandbox that allows nothing; other
// documents are downloads.
func TestCaptureServed(t *testing.T) {
	t.Parallel()
	copies := webtest.Shelf{}
	page := `<!DOCTYPE html><html><head><title>Prices</title><script>document.title="ran"</script></head>` +
		`<body class="x"><p>RTX 4090 on demand</p></body></html>`
	htmlKey := copies.Put(page, "text/html; charset=gbk", "https://example.org/prices?a=1&b=2", webtest.Fetched)
	textKey := copies.Put("plain words", "text/plain; charset=utf-8", "https://example.org/a.txt", webtest.Fetched)
	pdfKey := copies.Put("%PDF-1.7 …", "application/pdf", "https://example.org/a.pdf", webtest.Fetched)
	e := newSiteEnvWith(t, func(c *web.Config) { c.Captures = copies })
	e.PublishCapture("ppio", "gpu-coverage", htmlKey, "text/html; charset=gbk", "https://example.org/prices?a=1&b=2")
	e.PublishCapture("ppio", demo.CritElasticity, textKey, "text/plain; charset=utf-8", "https://example.org/a.txt")
	e.PublishCapture("zhixingyun", "gpu-coverage", pdfKey, "application/pdf", "https://example.org/a.pdf")

	for _, tc := range []struct {
		lang, want string
	}{
		{"en", "Archived copy of https://example.org/prices?a=1&b=2, fetched by Crossrank on 2 Mar 2026, 09:30 UTC."},
		{"zh-CN", "这是 https://example.org/prices?a=1&b=2 的存档副本，由 Crossrank 于 2026年3月2日 09:30 UTC 抓取。"},
	} {
		res, body := e.Get("/captures/"+htmlKey, "Accept-Language", tc.lang)
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html; charset=utf-8") {
			t.Fatalf("%s: %d %s %.300s", tc.lang, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
		if strings.Contains(body, "RTX 4090 on demand") {
			t.Errorf("%s: the archived body is inside the site's page", tc.lang)
		}
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
		if got := doc.Find(`[data-testid="capture-banner"]`).Text(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s banner %q, want %q…", tc.lang, got, tc.want)
		}
		frame := doc.Find(`iframe[data-testid="capture-frame"]`)
		if sb, ok := frame.Attr("sandbox"); !ok || sb != "" || frame.AttrOr("src", "") != "/captures/"+htmlKey+"/raw" {
			t.Errorf("%s: frame %v, want an empty sandbox attribute on /raw", tc.lang, frame.Nodes)
		}
		if got := doc.Find(`[data-testid="capture-download"]`).AttrOr("href", ""); got != "/captures/"+htmlKey+"/download" {
			t.Errorf("%s: download link %q", tc.lang, got)
		}
	}

	res, body := e.Get("/captures/" + htmlKey + "/raw")
	h := res.Header
	if res.StatusCode != http.StatusOK || body != page || h.Get("Content-Type") != "text/html; charset=gbk" {
		t.Errorf("raw: %d %v %q, want the archived bytes with their type", res.StatusCode, h, body)
	}
	if csp := h.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "sandbox;") || strings.Contains(csp, "allow-") ||
		strings.Contains(csp, "script-src") || !strings.Contains(csp, "frame-ancestors 'self'") {
		t.Errorf("raw CSP %q: want a sandbox that allows nothing, scripts least, framed by the site only", csp)
	}
	if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Content-Disposition") != "" || h.Get("X-Frame-Options") != "SAMEORIGIN" {
		t.Errorf("raw headers: %v", h)
	}
	res, body = e.Get("/captures/" + htmlKey + "/download")
	if res.StatusCode != http.StatusOK || body != page ||
		res.Header.Get("Content-Disposition") != `attachment; filename="`+htmlKey+`.html"` {
		t.Errorf("download: %d %v", res.StatusCode, res.Header)
	}

	res, body = e.Get("/captures/" + textKey + "/raw")
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/plain; charset=utf-8" || body != "plain words" ||
		!strings.HasPrefix(res.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("text capture: %d %v %q", res.StatusCode, res.Header, body)
	}
	doc := e.Page("/captures/" + pdfKey)
	if doc.Find(`iframe`).Length() != 0 || doc.Find(`[data-testid="capture-not-framed"]`).Length() != 1 {
		t.Errorf("a PDF is framed: a sandboxed viewer would not show it")
	}
	for _, path := range []string{"/raw", "/download"} {
		res, _ = e.Get("/captures/" + pdfKey + path)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/pdf" ||
			res.Header.Get("Content-Disposition") != `attachment; filename="`+pdfKey+`.pdf"` {
			t.Errorf("pdf capture %s: %d %v", path, res.StatusCode, res.Header)
		}
	}

	for _, target := range []string{
		"/captures/" + strings.Repeat("0", 64), // well formed, not kept
		"/captures/" + strings.Repeat("0", 64) + "/raw",
		"/captures/" + strings.ToUpper(htmlKey),
		"/captures/" + htmlKey[:63],
		"/captures/not-a-hash",
	} {
		res, body := e.Get(target, "Accept-Language", "en")
		if res.StatusCode != http.StatusNotFound || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
			!strings.Contains(body, "</html>") || strings.Contains(res.Header.Get("Content-Security-Policy"), "sandbox") {
			t.Errorf("GET %s: %d %s, want the site's 404 page", target, res.StatusCode, res.Header.Get("Content-Type"))
		}
	}
}

func TestCaptureWithoutArchive(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	if res, _ := e.Get("/captures/" + strings.Repeat("a", 64)); res.StatusCode != http.StatusNotFound {
		t.Errorf("no archive: %d, want 404", res.StatusCode)
	}
}

// TestEntryCaptureLinks records captures on two published evidence items
// and reads the entry page and the API: Robust Links on the source, the
// quote check in both languages, and the API's capture object.
func TestEntryCaptureLinks(t *testing.T) {
	t.Parallel()
	copies := webtest.Shelf{}
	key := copies.Put("<p>RTX 4090</p>", "text/html", "https://example.org/ppio", webtest.Fetched)
	e := newSiteEnvWith(t, func(c *web.Config) { c.Captures = copies })
	e.CrossValidate("ppio", "gpu-coverage", 4, domain.AddEvidence{Claim: events.Text{En: "PPIO lists GPUs"},
		SourceURL: "https://example.org/ppio", Excerpt: "RTX 4090", ObservedOn: "2026-03-01"})
	e.CrossValidate("ppio", demo.CritElasticity, 3, domain.AddEvidence{Claim: events.Text{En: "An archived price list"},
		SourceURL: "https://web.archive.org/web/2026/https://example.org/prices", Excerpt: "¥1.9/h", ObservedOn: "2026-03-01"})
	e.Publish("test-ppio-gpu-coverage", "test-ppio-"+demo.CritElasticity)
	record := func(proposal string, c domain.RecordCapture) {
		t.Helper()
		c.CommandID, c.Proposal, c.Evidence, c.At = proposal+"-capture", proposal, "e1", webtest.Fetched
		res, err := e.Cmd.RecordCapture(e.Ctx, domain.Worker(), c)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Read.WaitFor(e.Ctx, res.Sequence); err != nil {
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
		doc := e.Page("/r/gpu-cloud/e/ppio", "Accept-Language", lang)
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
	doc := e.Page("/r/gpu-cloud/e/zhixingyun", "Accept-Language", "en")
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
	res, body := e.Get("/api/v1/rankings/gpu-cloud/entries/ppio")
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
