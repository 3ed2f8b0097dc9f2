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
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/webtest"
)

// readWACZ reads a WACZ as the WACZ 1.1.1 spec has a reader do: unzip,
// datapackage.json's profile, version, metadata and resources, each
// resource's bytes and sha256 checked against its file, every file
// listed, datapackage-digest.json's hash of datapackage.json, and the
// CDXJ index (checkIndex); it returns the files by path.
func readWACZ(t *testing.T, body []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	files := map[string][]byte{}
	offsets := map[string]int64{}
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
		if strings.HasPrefix(f.Name, "archive/") && f.Method != zip.Store {
			t.Errorf("%s is compressed in the zip (method %d): the spec stores archive files", f.Name, f.Method)
		}
		files[f.Name] = b
		if offsets[f.Name], err = f.DataOffset(); err != nil {
			t.Fatal(err)
		}
	}
	var pkg struct {
		Profile     string `json:"profile"`
		Version     string `json:"wacz_version"`
		Title       string `json:"title"`
		Description string `json:"description"`
		Created     string `json:"created"`
		Modified    string `json:"modified"`
		Software    string `json:"software"`
		Resources   []struct {
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
	_, errCreated := time.Parse(time.RFC3339, pkg.Created)
	_, errModified := time.Parse(time.RFC3339, pkg.Modified)
	if pkg.Title == "" || pkg.Description == "" || pkg.Software == "" || errCreated != nil || errModified != nil {
		t.Errorf("datapackage.json: title %q, description %q, software %q, created %q, modified %q",
			pkg.Title, pkg.Description, pkg.Software, pkg.Created, pkg.Modified)
	}
	var digest struct{ Path, Hash string }
	if err := json.Unmarshal(files["datapackage-digest.json"], &digest); err != nil {
		t.Errorf("datapackage-digest.json: %v", err)
	}
	if sum := sha256.Sum256(files["datapackage.json"]); digest.Path != "datapackage.json" || digest.Hash != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Errorf("datapackage-digest.json %+v does not match datapackage.json", digest)
	}
	listed := []string{"datapackage.json", "datapackage-digest.json"}
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
	checkIndex(t, body, files, offsets)
	return files
}

// checkIndex reads indexes/index.cdx as a player does (CDXJ: sorted
// lines "searchable-url timestamp {json}") and follows each line to its
// record by a range of the WACZ itself: the WARC file's data offset in
// the zip plus the line's offset, for its length. That range must be one
// whole WARC record whose target, date, payload digest, status and media
// type are the line's, and whose SHA-256 is its recordDigest; every page
// must have a line.
func checkIndex(t *testing.T, wacz []byte, files map[string][]byte, offsets map[string]int64) {
	t.Helper()
	index, ok := files["indexes/index.cdx"]
	if !ok {
		t.Fatalf("no indexes/index.cdx: the spec's index, without which a player finds no page")
	}
	lines := strings.Split(strings.TrimSuffix(string(index), "\n"), "\n")
	if len(index) == 0 {
		lines = nil
	}
	if !slices.IsSorted(lines) {
		t.Errorf("index lines not sorted:\n%s", index)
	}
	indexed := map[string]bool{}
	for _, l := range lines {
		key, rest, _ := strings.Cut(l, " ")
		ts, js, _ := strings.Cut(rest, " ")
		var c struct {
			URL, Mime, Digest, RecordDigest, Filename string
			Status                                    int
			Offset, Length                            int64
		}
		if err := json.Unmarshal([]byte(js), &c); err != nil || len(ts) != 14 || !strings.Contains(key, ")/") {
			t.Errorf("index line %q: %v", l, err)
			continue
		}
		start, ok := offsets["archive/"+c.Filename]
		if !ok || c.Offset < 0 || c.Length <= 0 || c.Offset+c.Length > int64(len(files["archive/"+c.Filename])) {
			t.Errorf("index line %q: no such range in archive/%s", l, c.Filename)
			continue
		}
		raw := wacz[start+c.Offset : start+c.Offset+c.Length]
		recs, err := readWARC(raw)
		if err != nil || len(recs) != 1 {
			t.Errorf("index line %q: the range is %d records, %v", l, len(recs), err)
			continue
		}
		f := recs[0].Fields
		head, payload, _ := bytes.Cut(recs[0].Block, []byte("\r\n\r\n"))
		status, _, _ := strings.Cut(string(head), "\r\n")
		sum, whole := sha256.Sum256(payload), sha256.Sum256(raw)
		date, _ := time.Parse(time.RFC3339, f.Get("Warc-Date"))
		if f.Get("Warc-Target-Uri") != c.URL || f.Get("Warc-Payload-Digest") != c.Digest || c.Digest != "sha256:"+hex.EncodeToString(sum[:]) ||
			c.RecordDigest != "sha256:"+hex.EncodeToString(whole[:]) || !strings.Contains(status, " "+strconv.Itoa(c.Status)+" ") ||
			!strings.Contains(strings.ToLower(string(head)), "\r\ncontent-type: "+c.Mime) || strings.Contains(c.Mime, ";") ||
			date.UTC().Format("20060102150405") != ts {
			t.Errorf("index line %q does not describe its record:\n%s", l, head)
		}
		indexed[c.URL] = true
	}
	for _, p := range strings.Split(strings.TrimSpace(string(files["pages/pages.jsonl"])), "\n")[1:] {
		var page struct{ URL string }
		if json.Unmarshal([]byte(p), &page) != nil || !indexed[page.URL] {
			t.Errorf("page %s has no line in the index", p)
		}
	}
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

// TestEditionWACZFollowsLaterCaptures: a page is captured after the
// edition citing it is published (the capture worker runs then), so an
// archive kept from before the capture must not be served after it: the
// WACZ asked for in between holds no record, the one asked for after
// holds the page, under another ETag.
func TestEditionWACZFollowsLaterCaptures(t *testing.T) {
	t.Parallel()
	copies := webtest.Shelf{}
	url := "https://example.org/later"
	key := copies.Put("<p>captured later</p>", "text/html", url, webtest.Fetched)
	e := newSiteEnvWith(t, func(c *web.Config) { c.Captures = copies })
	id := e.CrossValidate("ppio", "gpu-coverage", 4, domain.AddEvidence{Claim: events.Text{En: "A page"}, SourceURL: url, Excerpt: "captured",
		ObservedOn: "2026-03-01"})
	e.Publish(id)
	ed, err := e.Cmd.Edition(e.Ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	path := "/r/" + demo.RankingSlug + "/editions/" + strconv.Itoa(ed.Number) + "/evidence.wacz"
	res, before := e.Get(path)
	if recs, err := readWARC(readWACZ(t, []byte(before))["archive/data.warc"]); res.StatusCode != http.StatusOK || err != nil || len(recs) != 0 {
		t.Fatalf("before the capture: %d, %d records, %v", res.StatusCode, len(recs), err)
	}
	done, err := e.Cmd.RecordCapture(e.Ctx, domain.Worker(), domain.RecordCapture{CommandID: id + "-capture", Proposal: id,
		Evidence: "e1", At: webtest.Fetched, FinalURL: url, Status: 200, ContentType: "text/html", Size: 10, SHA256: key, QuoteChecked: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Read.WaitFor(e.Ctx, done.Sequence); err != nil {
		t.Fatal(err)
	}
	after, body := e.Get(path)
	recs, err := readWARC(readWACZ(t, []byte(body))["archive/data.warc"])
	if err != nil || len(recs) != 1 || after.Header.Get("ETag") == res.Header.Get("ETag") {
		t.Errorf("after the capture: %d records, %v, ETag %s then %s", len(recs), err, res.Header.Get("ETag"), after.Header.Get("ETag"))
	}
}
