package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/domain/demo"
)

// TestServeRechecksPublishedSource: the whole evidence loop in a real
// `crossrank serve --recheck-every 1s`: a local page is cited, captured with
// its quote found, reviewed and published; the page then changes so the
// quote is gone, and the scheduled re-check records the drift on the
// evidence, which the public entry page shows; the archived copy is served
// sandboxed; verify passes beside the server.
func TestServeRechecksPublishedSource(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	data := t.TempDir()
	tokens := demoTokens(t, "--data", data)
	tokens["publisher"] = createToken(t, "publisher", "--data", data)
	const quote = "RTX 4090 每小时 1.98 元"
	var body atomic.Value
	body.Store("<html><body><p>价格：" + quote + "</p></body></html>")
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body.Load().(string))
	}))
	defer site.Close()
	srv := startServe(t, "serve", data, "--no-demo", "--capture-allow", "127.0.0.1/32", "--recheck-every", "1s")

	call := func(method, path, who string, in any) map[string]any {
		t.Helper()
		b, _ := json.Marshal(in)
		req, _ := http.NewRequest(method, srv.url+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tokens[who])
		res, err := apiClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		var out map[string]any
		if res.StatusCode/100 != 2 || json.Unmarshal(raw, &out) != nil {
			t.Fatalf("%s %s as %s: %d %s", method, path, who, res.StatusCode, raw)
		}
		return out
	}
	entry := demoPlatforms[0].Slug
	opened := call(http.MethodPost, "/api/v1/proposals", "editor", map[string]any{"ranking": demo.RankingSlug, "entry": entry,
		"title": "Cite the live price page"})
	id, _ := opened["id"].(string)
	base := "/api/v1/proposals/" + id
	call(http.MethodPost, base+"/evidence", "editor", map[string]any{"claim": "4090 at ¥1.98/h", "source_url": site.URL + "/price",
		"excerpt": quote, "observed_on": "2026-03-01", "tier": "third_party"})
	call(http.MethodPost, base+"/changes", "editor", map[string]any{"criterion": demo.CritElasticity, "to": 9,
		"rationale": "the hourly price on the live page", "evidence": []string{"e1"}})

	type evidence struct {
		Capture *struct {
			SHA256     string `json:"sha256"`
			QuoteFound bool   `json:"quote_found"`
		} `json:"capture"`
		SourceChanged *struct {
			SHA256     string `json:"sha256"`
			QuoteFound bool   `json:"quote_found"`
		} `json:"source_changed"`
	}
	var got struct {
		Revision int        `json:"revision"`
		Evidence []evidence `json:"evidence"`
	}
	waitFor := func(what string, done func() bool) {
		t.Helper()
		deadline := time.Now().Add(90 * time.Second)
		for {
			status, raw, err := apiGet(context.Background(), srv.url+base, tokens["editor"])
			if err != nil || status != http.StatusOK || json.Unmarshal(raw, &got) != nil || len(got.Evidence) != 1 {
				t.Fatalf("GET the proposal: %d %v %s", status, err, raw)
			}
			if done() {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("no %s after 90s: %s\n%s", what, raw, srv.log.tail(30))
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
	waitFor("capture", func() bool { return got.Evidence[0].Capture != nil })
	if !got.Evidence[0].Capture.QuoteFound {
		t.Fatalf("the quote was not found in the capture: %+v", got.Evidence[0].Capture)
	}
	captured := got.Evidence[0].Capture.SHA256

	// Review and publish: only published sources are re-checked.
	call(http.MethodPost, base+"/submit", "editor", map[string]any{})
	for _, r := range []string{"reviewer1", "reviewer2"} {
		call(http.MethodPost, base+"/votes", r, map[string]any{"revision": got.Revision, "verdict": "approve",
			"verified_evidence": []string{"e1"}})
	}
	pv := call(http.MethodPost, "/api/v1/rankings/"+demo.RankingSlug+"/editions/preview", "publisher",
		map[string]any{"proposals": []string{id}})
	call(http.MethodPost, "/api/v1/rankings/"+demo.RankingSlug+"/editions", "publisher",
		map[string]any{"proposals": []string{id}, "preview_hash": pv["preview_hash"]})

	// The page changes under the published score; the next tick sees it.
	body.Store("<html><body><p>价格：RTX 4090 每小时 2.38 元（已调价）</p></body></html>")
	waitFor("recorded drift", func() bool { return got.Evidence[0].SourceChanged != nil })
	if sc := got.Evidence[0].SourceChanged; sc.QuoteFound || sc.SHA256 == captured {
		t.Errorf("the drift record %+v: want a new version without the quote", sc)
	}

	// The public entry page says so, and the archived copy is still the
	// cited version, sandboxed.
	res, err := apiClient.Get(srv.url + "/r/" + demo.RankingSlug + "/e/" + entry + "?lang=en")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(page), "/captures/"+captured) || !strings.Contains(string(page), `data-testid="drift-quote-lost"`) {
		t.Errorf("the public entry page does not link the archived copy or say the quote is gone")
	}
	for _, path := range []string{"/captures/" + captured, "/captures/" + captured + "/raw"} {
		res, err = apiClient.Get(srv.url + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if sandboxed := strings.HasPrefix(res.Header.Get("Content-Security-Policy"), "sandbox;"); res.StatusCode != http.StatusOK ||
			sandboxed != strings.HasSuffix(path, "/raw") {
			t.Errorf("GET %s: %d, CSP %q; want the site's page, and the body sandboxed", path, res.StatusCode,
				res.Header.Get("Content-Security-Policy"))
		}
	}
	// The record itself, from the archive on the server's NATS, and the
	// edition's archive of the pages it cites.
	res, err = apiClient.Get(srv.url + "/captures/" + captured + ".warc")
	if err != nil {
		t.Fatal(err)
	}
	record, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if rec, err := capture.ReadRecord(bytes.NewReader(record)); res.StatusCode != http.StatusOK ||
		res.Header.Get("Content-Type") != "application/warc" || err != nil || rec.Key() != captured {
		t.Errorf("GET %s.warc: %d %q, %v", captured, res.StatusCode, res.Header.Get("Content-Type"), err)
	}
	res, err = apiClient.Get(srv.url + "/r/" + demo.RankingSlug + "/editions/" + strconv.Itoa(int(pv["number"].(float64))) + "/evidence.wacz")
	if err != nil {
		t.Fatal(err)
	}
	wacz, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !bytes.Contains(wacz, record) {
		t.Errorf("GET the edition's WACZ: %d, %d bytes; want the record stored in it", res.StatusCode, len(wacz))
	}
	if out, err := runCLIErr(t, "verify", "--data", data); err != nil {
		t.Errorf("verify beside the server: %v\n%s", err, out)
	}
}
