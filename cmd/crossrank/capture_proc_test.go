package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
)

// TestServeCapturesCitedPage: `crossrank serve --capture-allow
// 127.0.0.1/32` captures a local page an editor cites through the JSON
// API; the proposal's evidence JSON shows the capture's hash and quote
// check, and verify passes beside the server.
func TestServeCapturesCitedPage(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	data := t.TempDir()
	tokens := demoTokens(t, "--data", data)
	const quote = "RTX 4090 每小时 1.98 元"
	body := "<html><body><p>价格：" + quote + "</p></body></html>"
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	}))
	defer site.Close()
	srv := startServe(t, "serve", data, "--no-demo", "--capture-allow", "127.0.0.1/32")

	post := func(path string, in any) map[string]any {
		t.Helper()
		b, _ := json.Marshal(in)
		req, _ := http.NewRequest(http.MethodPost, srv.url+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tokens["editor"])
		res, err := apiClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		raw, _ := io.ReadAll(res.Body)
		if res.StatusCode/100 != 2 || json.Unmarshal(raw, &out) != nil {
			t.Fatalf("POST %s: %d %s", path, res.StatusCode, raw)
		}
		return out
	}
	opened := post("/api/v1/proposals", map[string]any{"ranking": demo.RankingSlug, "entry": demoPlatforms[0].Slug,
		"title": "Cite the live price page"})
	id, _ := opened["id"].(string)
	post("/api/v1/proposals/"+id+"/evidence", map[string]any{"claim": "4090 at ¥1.98/h", "source_url": site.URL + "/price",
		"excerpt": quote, "observed_on": "2026-03-01"})

	type capture struct {
		SHA256      string `json:"sha256"`
		Status      int    `json:"status"`
		FetchedAt   string `json:"fetched_at"`
		ContentType string `json:"content_type"`
		Size        int64  `json:"size"`
		QuoteFound  bool   `json:"quote_found"`
	}
	var got struct {
		Evidence []struct {
			Capture *capture `json:"capture"`
		} `json:"evidence"`
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		status, raw, err := apiGet(context.Background(), srv.url+"/api/v1/proposals/"+id, tokens["editor"])
		if err != nil || status != http.StatusOK || json.Unmarshal(raw, &got) != nil || len(got.Evidence) != 1 {
			t.Fatalf("GET the proposal: %d %v %s", status, err, raw)
		}
		if got.Evidence[0].Capture != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no capture after 60s: %s\n%s", raw, srv.log.tail(20))
		}
		time.Sleep(200 * time.Millisecond)
	}
	sum := sha256.Sum256([]byte(body))
	c := got.Evidence[0].Capture
	if c.SHA256 != hex.EncodeToString(sum[:]) || !c.QuoteFound || c.Status != 200 || c.Size != int64(len(body)) ||
		c.ContentType != "text/html; charset=utf-8" || c.FetchedAt == "" {
		t.Errorf("capture %+v", c)
	}
	if out, err := runCLIErr(t, "verify", "--data", data); err != nil {
		t.Errorf("verify beside the server: %v\n%s", err, out)
	}
}
