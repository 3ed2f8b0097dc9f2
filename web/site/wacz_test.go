package site_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/webtest"
)

// readWACZ reads a WACZ as the WACZ 1.1.1 spec has a reader do: unzip,
// datapackage.json's profile, version and resources, each resource's
// bytes and sha256 checked against its file, every file listed; it
// returns the files by path.
func readWACZ(t *testing.T, body []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if f.Name == "archive/data.warc" && f.Method != zip.Store {
			t.Errorf("archive/data.warc is compressed in the zip (method %d): the spec stores archive files", f.Method)
		}
		files[f.Name] = b
	}
	var pkg struct {
		Profile   string `json:"profile"`
		Version   string `json:"wacz_version"`
		Resources []struct {
			Name, Path, Hash string
			Bytes            int64
		} `json:"resources"`
	}
	if err := json.Unmarshal(files["datapackage.json"], &pkg); err != nil {
		t.Fatalf("datapackage.json: %v", err)
	}
	if pkg.Profile != "data-package" || pkg.Version != "1.1.1" {
		t.Errorf("datapackage.json: profile %q, wacz_version %q", pkg.Profile, pkg.Version)
	}
	listed := []string{"datapackage.json"}
	for _, r := range pkg.Resources {
		b, ok := files[r.Path]
		sum := sha256.Sum256(b)
		if !ok || r.Bytes != int64(len(b)) || r.Hash != "sha256:"+hex.EncodeToString(sum[:]) || r.Name == "" {
			t.Errorf("resource %+v does not match its file (%d bytes)", r, len(b))
		}
		listed = append(listed, r.Path)
	}
	for name := range files {
		if !slices.Contains(listed, name) {
			t.Errorf("%s is not in datapackage.json", name)
		}
	}
	return files
}

// TestEditionWACZ: an edition's archive holds the WARC records of the
// captures its evidence cites, those of the editions before it included
// and of later ones not, with the pages list and a datapackage.json
// whose digests match; the edition page links it in both languages; an
// unknown edition is 404.
func TestEditionWACZ(t *testing.T) {
	t.Parallel()
	copies := webtest.Shelf{}
	prices := copies.Put("<p>RTX 4090 on demand</p>", "text/html; charset=utf-8", "https://example.org/prices", webtest.Fetched)
	terms := copies.Put("elastic terms", "text/plain; charset=utf-8", "https://example.org/terms?a=1&b=2", webtest.Fetched)
	e := newSiteEnvWith(t, func(c *web.Config) { c.Captures = copies })
	e.PublishCapture("ppio", "gpu-coverage", prices, "text/html; charset=utf-8", "https://example.org/prices")
	ed, err := e.Cmd.Edition(e.Ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	first := ed.Number
	e.PublishCapture("ppio", demo.CritElasticity, terms, "text/plain; charset=utf-8", "https://example.org/terms?a=1&b=2")
	second := first + 1
	// A capture recorded but no longer in the archive is left out, not a
	// failed download.
	e.PublishCapture("zhixingyun", "gpu-coverage", strings.Repeat("b", 64), "text/html", "https://example.org/gone")
	third := second + 1

	for n, want := range map[int][]string{first: {prices}, second: {prices, terms}, third: {prices, terms}} {
		path := "/r/" + demo.RankingSlug + "/editions/" + strconv.Itoa(n) + "/evidence.wacz"
		res, body := e.Get(path)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/wacz" ||
			!strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment; filename=") {
			t.Fatalf("GET %s: %d %v", path, res.StatusCode, res.Header)
		}
		files := readWACZ(t, []byte(body))
		lines := strings.Split(strings.TrimSuffix(string(files["pages/pages.jsonl"]), "\n"), "\n")
		var head struct{ Format, ID, Title string }
		if err := json.Unmarshal([]byte(lines[0]), &head); err != nil || head.Format != "json-pages-1.0" || head.ID != "pages" || head.Title == "" {
			t.Errorf("edition %d: pages header %q", n, lines[0])
		}
		var pages []string
		for _, l := range lines[1:] {
			var p struct{ URL, TS string }
			if err := json.Unmarshal([]byte(l), &p); err != nil || p.URL == "" || p.TS != webtest.Fetched.Format("2006-01-02T15:04:05Z07:00") {
				t.Errorf("edition %d: page %q", n, l)
			}
			pages = append(pages, p.URL)
		}
		recs, err := readWARC(files["archive/data.warc"])
		if err != nil {
			t.Fatalf("edition %d: data.warc: %v", n, err)
		}
		var got []string
		for _, r := range recs {
			_, payload, _ := bytes.Cut(r.Block, []byte("\r\n\r\n"))
			sum := sha256.Sum256(payload)
			got = append(got, hex.EncodeToString(sum[:]))
		}
		slices.Sort(got)
		wantSorted := slices.Sorted(slices.Values(want))
		if !slices.Equal(got, wantSorted) || len(pages) != len(want) {
			t.Errorf("edition %d: records of %v, pages %v; want %v", n, got, pages, wantSorted)
		}
	}

	for lang, text := range map[string]string{"en": "Download the archive (WACZ)", "zh-CN": "下载存档（WACZ）"} {
		doc := e.Page("/r/"+demo.RankingSlug+"/editions/"+strconv.Itoa(second), "Accept-Language", lang)
		link := doc.Find(`[data-testid="download-wacz"]`)
		if link.Text() != text || link.AttrOr("href", "") != "/r/"+demo.RankingSlug+"/editions/"+strconv.Itoa(second)+"/evidence.wacz" {
			t.Errorf("%s: link %q %q", lang, link.Text(), link.AttrOr("href", ""))
		}
	}
	for _, path := range []string{"/r/" + demo.RankingSlug + "/editions/999/evidence.wacz", "/r/nope/editions/1/evidence.wacz",
		"/r/" + demo.RankingSlug + "/editions/x/evidence.wacz"} {
		if res, _ := e.Get(path); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, res.StatusCode)
		}
	}
}
