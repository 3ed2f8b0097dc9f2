package site_test

import (
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/web/site"
)

func TestPublicExport(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	dir := filepath.Join(t.TempDir(), "site")
	st, err := site.Export(e.Ctx, e.Read, dir, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("exported %d files, %d bytes in %v", st.Files, st.Bytes, st.Duration)
	checkExportMatchesAPI(t, e, dir)
	checkRelativeLinks(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "stray.txt"), []byte("left by hand"), 0o644); err != nil {
		t.Fatal(err)
	}

	// Exporting again while a reader keeps opening the site: the folder is
	// swapped whole, so the reader never finds it missing or half written.
	e.Publish("demo-qingjiao-2")
	var stop atomic.Bool
	var misses atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		for !stop.Load() {
			b, err := os.ReadFile(filepath.Join(dir, "api", "v1", "rankings.json"))
			if err != nil || !strings.Contains(string(b), `"slug": "gpu-cloud"`) {
				misses.Add(1)
			}
		}
	})
	for range 3 {
		if _, err := site.Export(e.Ctx, e.Read, dir, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	if misses.Load() > 0 {
		t.Errorf("a reader found the export missing or incomplete %d times", misses.Load())
	}
	if _, err := os.Stat(filepath.Join(dir, "stray.txt")); !os.IsNotExist(err) {
		t.Error("a file of the old export survived the swap")
	}
	if left, _ := filepath.Glob(dir + ".*"); len(left) != 0 {
		t.Errorf("temporary folders left beside the export: %v", left)
	}
	checkExportMatchesAPI(t, e, dir)
	mark, _ := e.Read.EditionMark(e.Ctx, "")
	if b, _ := os.ReadFile(filepath.Join(dir, ".crossrank-export")); strings.TrimSpace(string(b)) != mark.Key() {
		t.Errorf("export mark %q, want %q", b, mark.Key())
	}
	doc := exportedPage(t, dir, "en/index.html")
	moves := map[string]string{}
	doc.Find(`[data-testid="ranking-row"]`).Each(func(_ int, s *goquery.Selection) {
		moves[s.AttrOr("data-entry", "")] = s.Find(`[data-testid="move"] [aria-hidden]`).Text()
	})
	if moves["qingjiao"] != "▲1" {
		t.Errorf("exported ranking after edition 2: %v", moves)
	}
	// JSON-LD is data the page describes itself with, never run.
	if doc.Find(`script:not([type="application/ld+json"])`).Length() != 0 || doc.Find("form").Length() != 0 {
		t.Error("the static export carries a script or a form")
	}
	// The charts are drawn into the exported pages, and the table's
	// headers do not link to sorts a folder of files cannot serve.
	if doc.Find(`[data-testid="bump-chart"] svg title`).Length() == 0 || doc.Find(`[data-testid="sort-link"]`).Length() != 0 {
		t.Error("the exported ranking has no rank chart, or links its headers to sorts")
	}
	entry := exportedPage(t, dir, "en/r/gpu-cloud/e/qingjiao.html")
	for _, chart := range []string{"history-chart", "score-history-chart", "reach-chart", "record"} {
		if entry.Find(`[data-testid="`+chart+`"]`).Length() == 0 {
			t.Errorf("the exported entry page has no %s", chart)
		}
	}
	zh := exportedPage(t, dir, "zh/r/gpu-cloud/view/training/_all.html")
	if got := zh.Find(`[data-testid="scenario-training"]`).AttrOr("aria-current", ""); got != "page" {
		t.Error("the static training view does not mark its scenario")
	}
}

// checkExportMatchesAPI compares the export's JSON files with the API's
// answers byte for byte.
func checkExportMatchesAPI(t *testing.T, e *siteEnv, dir string) {
	t.Helper()
	eds, _ := e.Read.Editions(e.Ctx, "gpu-cloud", 100)
	files := map[string]string{
		"api/v1/rankings.json":                          "/api/v1/rankings",
		"api/v1/rankings/gpu-cloud.json":                "/api/v1/rankings/gpu-cloud",
		"api/v1/rankings/gpu-cloud/editions.json":       "/api/v1/rankings/gpu-cloud/editions",
		"api/v1/rankings/gpu-cloud/entries/ppio.json":   "/api/v1/rankings/gpu-cloud/entries/ppio",
		"api/v1/rankings/gpu-cloud/entries/aliyun.json": "/api/v1/rankings/gpu-cloud/entries/aliyun",
	}
	for _, ed := range eds {
		n := strconv.Itoa(ed.Number)
		files["api/v1/rankings/gpu-cloud/editions/"+n+".json"] = "/api/v1/rankings/gpu-cloud/editions/" + n
	}
	for file, target := range files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		if err != nil {
			t.Errorf("export lacks %s: %v", file, err)
			continue
		}
		if _, body := e.Get(target); body != string(b) {
			t.Errorf("%s differs from GET %s", file, target)
		}
	}
}

// checkRelativeLinks follows every link of every exported page: each is
// an external http(s) address or a file of the export, so the folder
// works from file://.
func checkRelativeLinks(t *testing.T, dir string) {
	t.Helper()
	pages := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		pages++
		rel, _ := filepath.Rel(dir, p)
		doc := exportedPage(t, dir, filepath.ToSlash(rel))
		doc.Find("a[href], link[href], script[src]").Each(func(_ int, s *goquery.Selection) {
			ref := s.AttrOr("href", s.AttrOr("src", ""))
			u, err := url.Parse(ref)
			if err != nil {
				t.Errorf("%s: bad link %q", rel, ref)
				return
			}
			if u.Scheme == "http" || u.Scheme == "https" || (u.Path == "" && u.Fragment != "") {
				return
			}
			if u.Scheme != "" || strings.HasPrefix(u.Path, "/") || u.RawQuery != "" {
				t.Errorf("%s: link %q does not work from file://", rel, ref)
				return
			}
			target := filepath.Join(filepath.Dir(p), filepath.FromSlash(u.Path))
			if fi, err := os.Stat(target); err != nil || fi.IsDir() {
				t.Errorf("%s: link %q points to no file", rel, ref)
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < 50 {
		t.Errorf("only %d pages exported", pages)
	}
}

func exportedPage(t *testing.T, dir, name string) *goquery.Document {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := goquery.NewDocumentFromReader(f)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
