package desk_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/web/webtest"
)

// upload posts file to the import form, as a browser does.
func upload(c *webtest.Client, name string, file []byte, ranking string, header ...string) (*http.Response, string) {
	c.T.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	if ranking != "" {
		_ = w.WriteField("ranking", ranking)
	}
	fw, err := w.CreateFormFile("file", name)
	if err != nil {
		c.T.Fatal(err)
	}
	_, _ = fw.Write(file)
	_ = w.Close()
	h := http.Header{"Content-Type": {w.FormDataContentType()}}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	return c.Do(http.MethodPost, "/desk/import", &b, h)
}

// importPage follows an upload's redirect to the import's page and
// reloads it, as its meta refresh does, until the import no longer runs.
func importPage(c *webtest.Client, location string, header ...string) *goquery.Document {
	c.T.Helper()
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	for {
		res, body := c.Do(http.MethodGet, location, nil, h)
		if res.StatusCode != http.StatusOK {
			c.T.Fatalf("GET %s: %d %.300s", location, res.StatusCode, body)
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
		if err != nil {
			c.T.Fatal(err)
		}
		job := doc.Find(`[data-testid="import-job"]`)
		if st, _ := job.Attr("data-state"); st != "checking" && st != "opening" {
			return doc
		}
		if doc.Find(`meta[http-equiv="refresh"]`).Length() == 0 {
			c.T.Fatal("a running import's page does not reload itself")
		}
		time.Sleep(20 * time.Millisecond) // the page's own refresh is a second
	}
}

// counts reads the import page's table of counts.
func counts(doc *goquery.Document) map[string]int {
	out := map[string]int{}
	doc.Find(`[data-testid^="import-count-"]`).Each(func(_ int, s *goquery.Selection) {
		k, _ := s.Attr("data-testid")
		n, _ := strconv.Atoi(s.Find(`[data-testid="import-count"]`).Text())
		out[strings.TrimPrefix(k, "import-count-")] = n
	})
	return out
}

// TestDeskImportDryRunThenConfirm uploads a generated ranking file: the
// page shows what it would open and stores nothing; confirming opens one
// proposal per entry and the definition; confirming again, or importing
// the same file again, opens none.
func TestDeskImportDryRunThenConfirm(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	c := e.Client("editor")
	if webtest.TestCount(e.Page(c, "/desk", http.StatusOK), "import-link") != 1 {
		t.Error("the dashboard does not link the import page")
	}
	if webtest.TestCount(e.Page(c, "/desk/import", http.StatusOK), "import-form") != 1 {
		t.Error("the import page has no form")
	}
	data, err := json.Marshal(rankfile.Generate("desk-import", rankfile.Size{Entries: 60, Criteria: 4, Evidence: 2, Seed: 3}))
	if err != nil {
		t.Fatal(err)
	}
	before := e.LastSeq()
	res, body := upload(c, "ranking.json", data, "")
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("upload: %d %.300s", res.StatusCode, body)
	}
	loc := res.Header.Get("Location")
	doc := importPage(c, loc)
	got := counts(doc)
	want := map[string]int{"entries": 60, "new_entries": 60, "unchanged_entries": 0, "changed_scores": 240,
		"unchanged_scores": 0, "open": 61, "already_open": 0, "problems": 0}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("dry run %s = %d, want %d", k, got[k], w)
		}
	}
	if n := e.LastSeq(); n != before {
		t.Fatalf("the dry run stored events: stream %d → %d", before, n)
	}
	if doc.Find(`[data-testid="import-confirm"]`).Length() != 1 {
		t.Fatal("no confirm button")
	}
	confirm := func() {
		res, body := c.PostForm(loc+"/confirm", nil)
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm: %d %.300s", res.StatusCode, body)
		}
	}
	confirm()
	doc = importPage(c, loc)
	if st, _ := doc.Find(`[data-testid="import-job"]`).Attr("data-state"); st != "done" {
		t.Fatalf("after confirming: state %q: %s", st, doc.Find(`[data-testid="import-failure"]`).Text())
	}
	e.CaughtUp()
	opened := proposalsOf(t, e, "desk-import")
	if opened != 61 {
		t.Errorf("%d proposals of desk-import stored, want 61", opened)
	}
	after := e.LastSeq()
	confirm() // a double submit
	importPage(c, loc)
	res, _ = upload(c, "ranking.json", data, "")
	again := counts(importPage(c, res.Header.Get("Location")))
	if again["open"] != 0 || again["already_open"] != 61 {
		t.Errorf("importing again: %d to open, %d already open; want 0 and 61", again["open"], again["already_open"])
	}
	if n := e.LastSeq(); n != after {
		t.Errorf("a second confirm or import stored events: stream %d → %d", after, n)
	}
}

// proposalsOf counts the proposals of ranking in the read models.
func proposalsOf(t *testing.T, e *demoEnv, ranking string) int {
	t.Helper()
	var n int
	if err := e.Read.DB().QueryRowContext(e.Ctx, `SELECT count(*) FROM proposals WHERE ranking=?`, ranking).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDeskImportCSVRoundTrip reads edition 1's own ranking.csv back: it
// changes nothing. The same CSV with one score changed, and evidence for
// it, proposes that change alone.
func TestDeskImportCSVRoundTrip(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	c := e.Client("editor")
	_, csvBody := c.Do(http.MethodGet, "/r/gpu-cloud/editions/1/ranking.csv", nil, nil)
	before := e.LastSeq()
	res, body := upload(c, "ranking.csv", []byte(csvBody), demo.RankingSlug)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("upload: %d %.300s", res.StatusCode, body)
	}
	got := counts(importPage(c, res.Header.Get("Location")))
	rows := strings.Count(csvBody, "\r\n") - 1
	if got["problems"] != 0 || got["changed_scores"] != 0 || got["open"] != 0 || got["new_entries"] != 0 ||
		got["unchanged_entries"] != 9 || got["unchanged_scores"] == 0 || got["unchanged_scores"] > rows {
		t.Errorf("edition 1's CSV read back: %v (of %d rows)", got, rows)
	}

	recs, err := csv.NewReader(strings.NewReader(csvBody)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var changed bytes.Buffer
	w := csv.NewWriter(&changed)
	_ = w.Write(append(recs[0], "rationale", "evidence_claim", "source_url", "excerpt", "observed_on"))
	for i, r := range recs[1:] {
		if i == 0 { // the first entry's first criterion: one point more, with its evidence
			v, _ := strconv.Atoi(r[7])
			r[7] = strconv.Itoa((v + 1) % 11)
			_ = w.Write(append(r, "Re-measured", "More GPUs listed", "https://example.org/list", "RTX 5090 listed", "2026-11-20"))
			continue
		}
		_ = w.Write(append(r, "", "", "", "", ""))
	}
	w.Flush()
	res, _ = upload(c, "ranking.csv", changed.Bytes(), demo.RankingSlug)
	doc := importPage(c, res.Header.Get("Location"))
	got = counts(doc)
	if got["problems"] != 0 || got["changed_scores"] != 1 || got["open"] != 1 || got["unchanged_entries"] != 8 {
		t.Errorf("one score changed: %v; problems: %s", got, doc.Find(`[data-testid="import-problems"]`).Text())
	}
	if n := e.LastSeq(); n != before {
		t.Errorf("dry runs stored events: stream %d → %d", before, n)
	}
}
