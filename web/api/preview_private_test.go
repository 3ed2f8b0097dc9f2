package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/site"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestPreviewStaysPrivate: creating and opening an embargoed preview
// leaves every other door as it was — the public pages and their
// validators, the feeds, the public API, the page cache (the preview's
// renders never enter it), the live push (the next event a reader's stream
// gets is the next edition) and the static export — and none of them
// shows the preview's evidence, id or link.
func TestPreviewStaysPrivate(t *testing.T) {
	t.Parallel()
	e := newPreviewEnv(t)
	pub := e.bearer("publisher")
	chosen := e.CrossValidate("ppio", demo.CritGPUs, 4, secretEvidence)

	ts := httptest.NewServer(e.Srv.Handler())
	defer ts.Close()
	ctx, cancel := context.WithCancel(e.Ctx)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /events: %v", err)
	}
	defer res.Body.Close()
	stream := webtest.ReadSSE(t, res)

	public := []string{"/", "/r/gpu-cloud", "/r/gpu-cloud/e/ppio", "/r/gpu-cloud/editions", "/r/gpu-cloud/editions/1",
		"/r/gpu-cloud/corrections", "/r/gpu-cloud/feed.atom", "/feed.atom", "/api/v1/rankings", "/api/v1/rankings/gpu-cloud",
		"/api/v1/rankings/gpu-cloud/entries/ppio", "/api/v1/rankings/gpu-cloud/editions", "/api/v1/rankings/gpu-cloud/editions/1"}
	etags := map[string]string{}
	for _, target := range public {
		res, _ := e.Get(target)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", target, res.StatusCode)
		}
		etags[target] = res.Header.Get("ETag")
	}
	cached := webtest.CacheStats(t, e.Srv)

	id, path := e.create(pub, []string{chosen}, "reviewer1")
	for _, lang := range []string{"en", "zh-CN", "en"} {
		if res, _ := e.Get(path, "Accept-Language", lang); res.StatusCode != http.StatusOK {
			t.Fatalf("preview: %d", res.StatusCode)
		}
	}
	e.CaughtUp()
	if got := webtest.CacheStats(t, e.Srv); got.Entries != cached.Entries || got.Bytes != cached.Bytes {
		t.Errorf("the page cache changed with the preview: %+v, was %+v", got, cached)
	}
	secrets := []string{secretEvidence.Claim.En, secretEvidence.Excerpt, id, "/preview/"}
	leaks := func(where, body string) {
		t.Helper()
		for _, s := range secrets {
			if strings.Contains(body, s) {
				t.Errorf("%s shows %q", where, s)
			}
		}
	}
	for _, target := range public {
		res, body := e.Get(target)
		if res.StatusCode != http.StatusOK || res.Header.Get("ETag") != etags[target] {
			t.Errorf("GET %s: %d, ETag %s, was %s", target, res.StatusCode, res.Header.Get("ETag"), etags[target])
		}
		leaks(target, body)
	}

	dir := filepath.Join(t.TempDir(), "export")
	if _, err := site.Export(e.Ctx, e.Read, dir, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".zip") || strings.HasSuffix(p, ".gz") {
			return err
		}
		b, err := os.ReadFile(p)
		leaks("export "+p, string(b))
		return err
	}); err != nil {
		t.Fatal(err)
	}

	// The live push: the first event after the preview is the next edition.
	e.Publish("demo-qingjiao-2")
	select {
	case ev := <-stream:
		var d struct {
			Edition int `json:"edition"`
		}
		if err := json.Unmarshal([]byte(ev.Data), &d); err != nil || ev.Name != "edition-published" || d.Edition != 2 {
			t.Errorf("first live event after the preview: %+v", ev)
		}
		leaks("the live push", ev.Data)
	case <-time.After(10 * time.Second):
		t.Fatal("no live event for the edition")
	}
}
