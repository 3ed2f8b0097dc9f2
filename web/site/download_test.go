package site

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
)

// latestEdition returns the demo's newest edition and its snapshot hash.
func (e *env) latestEdition() (int, string) {
	e.t.Helper()
	ctx := context.Background()
	_, n, err := e.site.read.Definition(ctx, demo.RankingSlug)
	if err != nil || n == 0 {
		e.t.Fatalf("definition: %v, edition %d", err, n)
	}
	d, err := e.site.read.Edition(ctx, demo.RankingSlug, n)
	if err != nil {
		e.t.Fatal(err)
	}
	return n, d.SnapshotHash
}

func TestEditionDownloads(t *testing.T) {
	e := newEnv(t, 0)
	n, hash := e.latestEdition()
	base := "/r/" + demo.RankingSlug + "/editions/" + strconv.Itoa(n) + "/"

	t.Run("json is the snapshot the edition hashed", func(t *testing.T) {
		res, body := e.get(base + "ranking.json")
		if res.StatusCode != 200 {
			t.Fatalf("status %d", res.StatusCode)
		}
		sum := sha256.Sum256([]byte(body))
		if got := hex.EncodeToString(sum[:]); got != hash {
			t.Errorf("sha256(ranking.json) = %s, want the snapshot hash %s", got, hash)
		}
		var s domain.Snapshot
		if err := json.Unmarshal([]byte(body), &s); err != nil || s.Edition != n || len(s.Entries) == 0 {
			t.Errorf("snapshot: %v, edition %d, %d entries", err, s.Edition, len(s.Entries))
		}
	})

	t.Run("csv has a row per entry and criterion", func(t *testing.T) {
		res, body := e.get(base + "ranking.csv")
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
			t.Fatalf("status %d, type %q", res.StatusCode, res.Header.Get("Content-Type"))
		}
		if !strings.HasSuffix(body, "\r\n") || strings.Count(body, "\n") != strings.Count(body, "\r\n") {
			t.Error("lines do not end in CRLF (RFC 4180)")
		}
		rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"rank", "entry", "entry_name_en", "entry_name_zh", "category", "criterion", "weight", "score", "evidence", "tier"}
		if !slices.Equal(rows[0], want) {
			t.Fatalf("header %q, want %q", rows[0], want)
		}
		var s domain.Snapshot
		_, js := e.get(base + "ranking.json")
		if err := json.Unmarshal([]byte(js), &s); err != nil {
			t.Fatal(err)
		}
		if got, want := len(rows)-1, len(s.Entries)*len(s.Weights); got != want {
			t.Fatalf("%d rows, want %d entries × %d criteria", got, len(s.Entries), len(s.Weights))
		}
		// Every score and its evidence as the entry page publishes them
		// (the newest edition's values are the published ones).
		// Every entry's tier is the one its stability in that edition gives.
		stab, err := e.site.read.Stability(context.Background(), demo.RankingSlug, n)
		if err != nil {
			t.Fatal(err)
		}
		withEvidence := 0
		for _, row := range rows[1:] {
			if tier := stab[row[1]].Tier; tier < 1 || row[9] != strconv.Itoa(tier) {
				t.Errorf("%s: tier %q, want %d", row[1], row[9], tier)
			}
			ent, err := e.site.read.Entry(context.Background(), demo.RankingSlug, row[1])
			if err != nil {
				t.Fatal(err)
			}
			if strconv.Itoa(ent.Rank) != row[0] {
				t.Errorf("%s: rank %s, want %d", row[1], row[0], ent.Rank)
			}
			score, ev := "", []string{}
			for _, sv := range ent.Scores {
				if sv.Criterion == row[5] {
					score = strconv.Itoa(sv.Score)
					for _, x := range sv.Evidence {
						ev = append(ev, x.Proposal+"/"+x.ID)
					}
				}
			}
			got := strings.Fields(row[8])
			slices.Sort(got)
			slices.Sort(ev)
			if row[7] != score || !slices.Equal(got, ev) {
				t.Errorf("%s/%s: score %q evidence %q, want %q %q", row[1], row[5], row[7], got, score, ev)
			}
			if len(got) > 0 {
				withEvidence++
			}
		}
		if withEvidence == 0 {
			t.Error("no row names its evidence")
		}
	})

	t.Run("immutable, same bytes, ETag is the snapshot hash", func(t *testing.T) {
		// The CSV's tag adds the version of its columns (csvVersion): the
		// tier column was added to editions already published.
		tags := map[string]string{"ranking.csv": hash + "-" + csvVersion, "ranking.json": hash}
		for _, f := range []string{"ranking.csv", "ranking.json"} {
			hash := tags[f]
			res, first := e.get(base + f)
			if got, want := res.Header.Get("ETag"), `"`+hash+`"`; got != want {
				t.Errorf("%s: ETag %s, want %s", f, got, want)
			}
			if got := res.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
				t.Errorf("%s: Cache-Control %q", f, got)
			}
			if _, again := e.get(base + f); again != first {
				t.Errorf("%s: bytes differ between two requests", f)
			}
			if res, _ := e.get(base+f, "If-None-Match", `"`+hash+`"`); res.StatusCode != http.StatusNotModified {
				t.Errorf("%s: If-None-Match: status %d, want 304", f, res.StatusCode)
			}
		}
	})

	t.Run("csvw metadata describes the csv", func(t *testing.T) {
		res, body := e.get(base + "ranking.csv-metadata.json")
		if res.StatusCode != 200 || res.Header.Get("ETag") == "" {
			t.Fatalf("status %d, ETag %q", res.StatusCode, res.Header.Get("ETag"))
		}
		var m struct {
			Context     []any  `json:"@context"`
			URL         string `json:"url"`
			Identifier  string `json:"dc:identifier"`
			TableSchema struct {
				Columns []struct {
					Name     string            `json:"name"`
					Titles   map[string]string `json:"titles"`
					Datatype string            `json:"datatype"`
				} `json:"columns"`
			} `json:"tableSchema"`
		}
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatal(err)
		}
		if m.Context[0] != "http://www.w3.org/ns/csvw" || m.URL != "ranking.csv" || m.Identifier != "sha256:"+hash {
			t.Errorf("context %v, url %q, identifier %q", m.Context[0], m.URL, m.Identifier)
		}
		_, csvBody := e.get(base + "ranking.csv")
		head, _ := csv.NewReader(strings.NewReader(csvBody)).Read()
		if len(m.TableSchema.Columns) != len(head) {
			t.Fatalf("%d columns, the csv has %d", len(m.TableSchema.Columns), len(head))
		}
		for i, c := range m.TableSchema.Columns {
			if c.Name != head[i] || c.Titles["und"] != head[i] || c.Titles["en"] == "" || c.Titles["zh"] == "" ||
				c.Titles["en"] == c.Titles["zh"] || c.Datatype == "" {
				t.Errorf("column %d = %+v, header %q", i, c, head[i])
			}
		}
	})

	t.Run("csvw reader's totals are the ranking's", func(t *testing.T) {
		// A CSVW reader parses each cell as the tabular data model says
		// (Parsing Cells): an empty cell takes the column's default, then
		// a string among its null values is null. Summing weight × score
		// from the values it gets must give the edition's totals, also
		// for the criteria an entry has no score on.
		_, meta := e.get(base + "ranking.csv-metadata.json")
		var m struct {
			TableSchema struct {
				Columns []struct {
					Name    string `json:"name"`
					Default string `json:"default"`
					Null    any    `json:"null"`
				} `json:"columns"`
			} `json:"tableSchema"`
		}
		if err := json.Unmarshal([]byte(meta), &m); err != nil {
			t.Fatal(err)
		}
		value := func(col int, cell string) (int, bool) {
			c := m.TableSchema.Columns[col]
			if cell == "" {
				cell = c.Default
			}
			nulls := []any{""}
			switch n := c.Null.(type) {
			case string:
				nulls = []any{n}
			case []any:
				nulls = n
			}
			if slices.Contains(nulls, any(cell)) {
				return 0, false
			}
			v, err := strconv.Atoi(cell)
			if err != nil {
				t.Fatalf("column %s: %q is no integer", c.Name, cell)
			}
			return v, true
		}
		_, body := e.get(base + "ranking.csv")
		rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		totals, unscored := map[string]int{}, 0
		for _, row := range rows[1:] {
			if row[7] == "" {
				unscored++
			}
			weight, ok1 := value(6, row[6])
			score, ok2 := value(7, row[7])
			if !ok1 || !ok2 {
				t.Fatalf("%s/%s: the reader gets null for weight %q or score %q", row[1], row[5], row[6], row[7])
			}
			totals[row[1]] += weight * score
		}
		if unscored == 0 {
			t.Fatal("the demo's edition has no unscored criterion: the test shows nothing")
		}
		var snap domain.Snapshot
		_, js := e.get(base + "ranking.json")
		if err := json.Unmarshal([]byte(js), &snap); err != nil {
			t.Fatal(err)
		}
		for _, en := range snap.Entries {
			if totals[en.Slug] != en.Total {
				t.Errorf("%s: the reader's total %d, the ranking's %d", en.Slug, totals[en.Slug], en.Total)
			}
		}
	})

	t.Run("no such edition is 404", func(t *testing.T) {
		for _, p := range []string{
			"/r/" + demo.RankingSlug + "/editions/999/ranking.csv",
			"/r/" + demo.RankingSlug + "/editions/0/ranking.json",
			"/r/" + demo.RankingSlug + "/editions/x/ranking.csv-metadata.json",
			"/r/nope/editions/1/ranking.csv",
			"/r/" + demo.RankingSlug + "/editions/999/cite.bib",
			"/r/nope/editions/1/cite.json",
		} {
			if res, _ := e.get(p); res.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", p, res.StatusCode)
			}
		}
	})

	t.Run("export writes the same bytes", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "site")
		if _, err := Export(context.Background(), e.site.read, dir, time.Now()); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"ranking.csv", "ranking.json", "ranking.csv-metadata.json"} {
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(base, "/")+f)))
			if err != nil {
				t.Fatal(err)
			}
			if _, served := e.get(base + f); string(b) != served {
				t.Errorf("%s: the export differs from what the site serves", f)
			}
		}
		page, err := os.ReadFile(filepath.Join(dir, "en", "r", demo.RankingSlug, "editions", "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		if want := `href="../../../../r/` + demo.RankingSlug + `/editions/` + strconv.Itoa(n) + `/ranking.csv"`; !strings.Contains(string(page), want) {
			t.Errorf("the exported editions page does not link %s", want)
		}
	})
}
