package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/webhook"
)

// TestServeExportsAndPostsOnPublish runs serve with --site-dir and
// --webhook on a fresh data directory: loading the demo publishes edition
// 1, which appears in the site folder and reaches the webhook, signed.
// Then `crossrank export` writes the same site from the stored events.
func TestServeExportsAndPostsOnPublish(t *testing.T) {
	t.Setenv("CROSSRANK_DEMO_PASSWORD", "demo-password")
	data := t.TempDir()
	site := filepath.Join(t.TempDir(), "site")

	var mu sync.Mutex
	got := map[string]int{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		key, _, _ := webhook.Key("hook-secret")
		ts, _ := strconv.ParseInt(r.Header.Get(webhook.TimestampHeader), 10, 64)
		want := webhook.SignStandard(key, r.Header.Get(webhook.IDHeader), ts, body)
		if !hmac.Equal([]byte(r.Header.Get(webhook.StandardSignatureHeader)), []byte(want)) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		mu.Lock()
		got[r.Header.Get(webhook.DeliveryHeader)]++
		mu.Unlock()
	}))
	defer ts.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, []string{"--data", data, "--addr", "127.0.0.1:0", "--site-dir", site,
			"--webhook", ts.URL + "/hook", "--webhook-secret", "hook-secret"})
	}()
	deadline := time.Now().Add(90 * time.Second)
	for {
		mu.Lock()
		delivered := got["gpu-cloud/1"]
		mu.Unlock()
		_, err := os.Stat(filepath.Join(site, "en", "r", "gpu-cloud", "index.html"))
		if delivered == 1 && err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no export or delivery: delivered %d, site %v", delivered, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
	}

	out := filepath.Join(t.TempDir(), "out")
	if err := run(context.Background(), []string{"export", "--data", data, "--out", out}); err != nil {
		t.Fatalf("export: %v", err)
	}
	for _, f := range []string{"api/v1/rankings/gpu-cloud.json", "api/v1/rankings/gpu-cloud/editions/1.json", ".crossrank-export"} {
		a, err1 := os.ReadFile(filepath.Join(site, f))
		b, err2 := os.ReadFile(filepath.Join(out, f))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: serve's export and `crossrank export` differ (%v, %v)", f, err1, err2)
		}
	}
	index, _ := os.ReadFile(filepath.Join(out, "zh", "index.html"))
	if !strings.Contains(string(index), "GPU 算力租赁平台观察") {
		t.Error("the exported Chinese start page does not show the ranking")
	}
	if err := run(context.Background(), []string{"export", "--data", data}); err == nil {
		t.Error("export without --out succeeded")
	}
}
