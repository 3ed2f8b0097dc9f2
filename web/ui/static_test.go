package ui

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestStaticAssets(t *testing.T) {
	h := Static()
	url := AssetURL("app.css")
	if !strings.HasPrefix(url, "/static/app.css?v=") {
		t.Fatalf("AssetURL = %q", url)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, url, nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") ||
		!strings.HasPrefix(rec.Header().Get("Content-Type"), "text/css") {
		t.Fatalf("status %d headers %v", rec.Code, rec.Header())
	}
	etag := rec.Header().Get("ETag")
	req := httptest.NewRequest(http.MethodGet, "/static/app.css", nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified || strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
		t.Errorf("revalidation: status %d Cache-Control %q", rec.Code, rec.Header().Get("Cache-Control"))
	}
	for _, name := range []string{"app.js", "favicon.svg"} {
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, AssetURL(name), nil))
		if rec.Code != http.StatusOK {
			t.Errorf("%s: status %d", name, rec.Code)
		}
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/static/../static.go", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("outside the assets: status %d", rec.Code)
	}
}
