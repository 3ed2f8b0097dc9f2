package site

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/csvsafe"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// The downloads of an edition: the ranking as CSV (one row per entry and
// criterion) with its W3C CSVW metadata beside it, and as JSON (the
// snapshot's canonical bytes, whose SHA-256 is the hash the edition
// commits to, so a reader can check a download against the edition).
// The CSV and the JSON come from the snapshot and the edition's changelog
// alone, both fixed at publication: they are immutable, and their ETag is
// the snapshot hash. The metadata also names the ranking's title and
// license, which a later methodology may change, so it is revalidated.

// Download file names, as served under /r/{slug}/editions/{n}/.
const (
	rankingCSVFile  = "ranking.csv"
	rankingJSONFile = "ranking.json"
	csvMetaFile     = "ranking.csv-metadata.json"
)

// csvVersion names ranking.csv's columns in its ETag; a new column is a
// new version.
const csvVersion = "c2"

// csvColumn is one column of ranking.csv.
type csvColumn struct {
	Name      string // the header cell
	Datatype  string // CSVW (XML Schema) datatype
	Separator string // a list in one cell, split on it; "" for one value
	// Default is the value of an empty cell (CSVW "default", applied
	// before "null"): "" leaves it the CSVW default, an empty cell is
	// null (an empty list where Separator is set).
	Default string
	// Note is the catalog key of the column's dc:description; "": none.
	Note string
}

// csvColumns are ranking.csv's columns, in order; their titles are the
// catalog keys "download.col.<name>".
var csvColumns = []csvColumn{
	{Name: "rank", Datatype: "integer"},
	{Name: "entry", Datatype: "string"},
	{Name: "entry_name_en", Datatype: "string"},
	{Name: "entry_name_zh", Datatype: "string"},
	{Name: "category", Datatype: "string"},
	{Name: "criterion", Datatype: "string"},
	{Name: "weight", Datatype: "integer"},
	// An unscored criterion is an empty cell, and the ranking's total
	// counts it as 0: the default makes a CSVW reader's sums ours.
	{Name: "score", Datatype: "integer", Default: "0", Note: "download.col.score_note"},
	{Name: "evidence", Datatype: "string", Separator: " "},
	// The entry's tier (see domain.Stability), computed from the snapshot,
	// last so that readers of the earlier columns by position keep them.
	{Name: "tier", Datatype: "integer"},
}

// rankingCSV writes the edition as RFC 4180 CSV (CRLF line ends, UTF-8
// without a byte-order mark): a header, then every entry in rank order
// and, within it, every weighted criterion by slug. An entry without a
// score on a criterion has an empty score cell. stab is the edition's
// stability (projections.Store.Stability), which holds each entry's tier.
func rankingCSV(d projections.EditionSnapshot, stab map[string]domain.EntryStability) []byte {
	var buf bytes.Buffer
	w := csvsafe.NewWriter(&buf, true) // names and categories are people's text: no formulas
	head := make([]string, len(csvColumns))
	for i, c := range csvColumns {
		head[i] = c.Name
	}
	_ = w.Write(head) // a bytes.Buffer does not fail
	for _, e := range d.Snapshot.Entries {
		scores := map[string]int{}
		for _, s := range e.Scores {
			scores[s.Name] = s.Value
		}
		for _, c := range d.Snapshot.Weights {
			score := ""
			if v, ok := scores[c.Name]; ok {
				score = strconv.Itoa(v)
			}
			ev := strings.Join(d.Evidence[projections.EvidenceKey(e.Slug, "score:"+c.Name)], " ")
			_ = w.Write([]string{strconv.Itoa(e.Rank), e.Slug, e.Name.En, e.Name.Zh, e.Category, c.Name,
				strconv.Itoa(c.Value), score, ev, strconv.Itoa(stab[e.Slug].Tier)})
		}
	}
	w.Flush()
	return buf.Bytes()
}

// langMap is a text in both languages, as JSON-LD language maps write it.
type langMap struct {
	Und string `json:"und,omitempty"`
	En  string `json:"en"`
	Zh  string `json:"zh"`
}

func catalogText(key string, args ...any) langMap {
	return langMap{En: i18n.T(i18n.En, key, args...), Zh: i18n.T(i18n.Zh, key, args...)}
}

// editionTitle is "<ranking title> · Edition <n>" in both languages.
func editionTitle(def *domain.Ranking, n int) langMap {
	t := catalogText("public.edition_title", n)
	return langMap{En: def.Title.En + " · " + t.En, Zh: def.Title.Zh + " · " + t.Zh}
}

type csvwColumn struct {
	Name        string    `json:"name"`
	Titles      langMap   `json:"titles"`
	Description []ldValue `json:"dc:description,omitempty"`
	Datatype    string    `json:"datatype"`
	Separator   string    `json:"separator,omitempty"`
	Default     string    `json:"default,omitempty"`
}

// ldValue is a JSON-LD value object: CSVW's common properties (dc:…)
// take these, not the language maps its titles take.
type ldValue struct {
	Value string `json:"@value"`
	Lang  string `json:"@language"`
}

type csvwMetadata struct {
	Context     []any   `json:"@context"`
	URL         string  `json:"url"`
	Title       langMap `json:"dc:title"`
	Version     string  `json:"schema:version"`
	Modified    string  `json:"dc:modified"`
	License     *idRef  `json:"dc:license,omitempty"`
	Identifier  string  `json:"dc:identifier"`
	TableSchema struct {
		Columns    []csvwColumn `json:"columns"`
		PrimaryKey []string     `json:"primaryKey"`
	} `json:"tableSchema"`
}

type idRef struct {
	ID string `json:"@id"`
}

// licenseURL is the SPDX page of a license identifier; "" when none is stated.
func licenseURL(spdx string) string {
	if spdx == "" {
		return ""
	}
	return "https://spdx.org/licenses/" + spdx + ".html"
}

// csvMetadataOf describes ranking.csv for CSVW processors. Each column's
// titles hold the header cell (und, so a validator matches it) and its
// title in both languages; a column whose empty cell means a value says
// which (default) and why (dc:description).
func csvMetadataOf(d projections.EditionSnapshot, def *domain.Ranking) ([]byte, error) {
	m := csvwMetadata{Context: []any{"http://www.w3.org/ns/csvw", map[string]string{"@language": "en", "schema": "http://schema.org/"}},
		URL: rankingCSVFile, Title: editionTitle(def, d.Number), Version: strconv.Itoa(d.Number), Modified: d.PublishedAt,
		Identifier: "sha256:" + d.SnapshotHash}
	if u := licenseURL(def.License); u != "" {
		m.License = &idRef{ID: u}
	}
	for _, c := range csvColumns {
		t := catalogText("download.col." + c.Name)
		t.Und = c.Name
		col := csvwColumn{Name: c.Name, Titles: t, Datatype: c.Datatype, Separator: c.Separator, Default: c.Default}
		if c.Note != "" {
			note := catalogText(c.Note)
			col.Description = []ldValue{{Value: note.En, Lang: i18n.En}, {Value: note.Zh, Lang: i18n.Zh}}
		}
		m.TableSchema.Columns = append(m.TableSchema.Columns, col)
	}
	m.TableSchema.PrimaryKey = []string{"entry", "criterion"}
	return marshalJSON(m)
}

// editionSnapshot reads the edition the path names; ErrNotFound when the
// number is not one or there is no such edition.
func (s *Site) editionSnapshot(ctx context.Context, r *http.Request) (projections.EditionSnapshot, error) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		return projections.EditionSnapshot{}, domain.ErrNotFound
	}
	return s.read.EditionSnapshot(ctx, r.PathValue("slug"), n)
}

// editionOf reads the edition the path names: its ranking, number and
// snapshot hash; ErrNotFound when the number is not one or there is no
// such edition.
func (s *Site) editionOf(r *http.Request) (slug string, n int, hash string, err error) {
	slug = r.PathValue("slug")
	n, err = strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		return slug, 0, "", domain.ErrNotFound
	}
	hash, err = s.read.EditionHash(r.Context(), slug, n)
	return slug, n, hash, err
}

// rankingCSV serves GET /r/{slug}/editions/{n}/ranking.csv.
func (s *Site) rankingCSV(w http.ResponseWriter, r *http.Request) {
	slug, n, hash, err := s.editionOf(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	// The tag is the snapshot hash and a version of the columns: the tier
	// column came after editions were published, and a cached copy
	// without it must not be taken for the current bytes.
	s.serveEditionFile(w, r, editionFile{Type: "text/csv; charset=utf-8; header=present", Tag: hash + "-" + csvVersion,
		Build: func(ctx context.Context) ([]byte, error) {
			d, err := s.read.EditionSnapshot(ctx, slug, n)
			if err != nil {
				return nil, err
			}
			stab, err := s.read.Stability(ctx, slug, n)
			if err != nil {
				return nil, err
			}
			return rankingCSV(d, stab), nil
		}})
}

// rankingJSON serves GET /r/{slug}/editions/{n}/ranking.json.
func (s *Site) rankingJSON(w http.ResponseWriter, r *http.Request) {
	slug, n, hash, err := s.editionOf(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	s.serveEditionFile(w, r, editionFile{Type: "application/json", Tag: hash,
		Build: func(ctx context.Context) ([]byte, error) {
			d, err := s.read.EditionSnapshot(ctx, slug, n)
			return d.Canonical, err
		}})
}

// editionFile is a download of an edition whose bytes never change once
// it is published (ranking.csv, ranking.json).
type editionFile struct {
	Type  string
	Tag   string // the ETag of the uncompressed bytes, unquoted
	Build func(ctx context.Context) ([]byte, error)
}

// serveEditionFile answers with f, or 304 when the reader's copy has its
// tag. At 10,000 entries ranking.csv is 7.9 MB and ranking.json 5 MB: the
// bytes are built once per edition and kept in the page cache, and its
// gzip copy beside them is made once too (cachedBody.serve), so a request
// neither rebuilds nor recompresses them while they stay cached. The
// compressed copy has a tag of its own (gzipTag). The bytes are the same
// for every reader, signed in or not.
func (s *Site) serveEditionFile(w http.ResponseWriter, r *http.Request, f editionFile) {
	tag := `"` + f.Tag + `"`
	if acceptsGzip(r) {
		tag = gzipTag(tag)
	}
	h := w.Header()
	h.Set("ETag", tag)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	if notModified(r, tag, time.Time{}, false) {
		h.Add("Vary", "Accept-Encoding")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body, err := s.cache.get("file|"+r.URL.Path+"|"+f.Tag, func() ([]byte, error) { return f.Build(r.Context()) })
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	h.Set("Content-Type", f.Type)
	body.serve(w, r, "")
}

// csvMetadata serves GET /r/{slug}/editions/{n}/ranking.csv-metadata.json.
func (s *Site) csvMetadata(w http.ResponseWriter, r *http.Request) {
	d, err := s.editionSnapshot(r.Context(), r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	def, _, err := s.definition(r.Context(), d.Ranking)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	body, err := csvMetadataOf(d, def)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	serveFixed(w, r, fixedFile{Type: "application/csvm+json", Body: body})
}

// fixedFile is a download whose bytes depend on published data only.
type fixedFile struct {
	Type string
	// Tag is the ETag (unquoted); "": the body's SHA-256.
	Tag string
	// Immutable says the bytes never change at this URL.
	Immutable bool
	Body      []byte
}

// serveFixed answers with f, or 304 when the reader's copy has its tag.
func serveFixed(w http.ResponseWriter, r *http.Request, f fixedFile) {
	if f.Tag == "" {
		sum := sha256.Sum256(f.Body)
		f.Tag = hex.EncodeToString(sum[:16])
	}
	tag := `"` + f.Tag + `"`
	h := w.Header()
	h.Set("ETag", tag)
	if f.Immutable {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "public, no-cache")
	}
	if notModified(r, tag, time.Time{}, false) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", f.Type)
	h.Set("Content-Length", strconv.Itoa(len(f.Body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(f.Body)
	}
}

// Download is a file of edition n's downloads (see the *File constants).
func (l linkSet) Download(slug string, n int, file string) string {
	p := "r/" + slug + "/editions/" + strconv.Itoa(n) + "/" + file
	if l.static {
		return l.root(p)
	}
	return "/" + p
}

// downloads writes every edition's downloads of a ranking at the export's
// top folder (they hold both languages).
func (x *exporter) downloads(slug string) {
	def, _, err := x.read.Definition(x.ctx, slug)
	if err != nil {
		x.err = err
		return
	}
	eds, err := x.read.Editions(x.ctx, slug, 1000)
	if err != nil {
		x.err = err
		return
	}
	for _, e := range eds {
		d, err := x.read.EditionSnapshot(x.ctx, slug, e.Number)
		if err != nil {
			x.err = err
			return
		}
		base := "r/" + slug + "/editions/" + strconv.Itoa(e.Number) + "/"
		stab, err := x.read.Stability(x.ctx, slug, e.Number)
		if err != nil {
			x.err = err
			return
		}
		x.write(base+rankingCSVFile, rankingCSV(d, stab))
		x.write(base+rankingJSONFile, d.Canonical)
		meta, err := csvMetadataOf(d, def)
		if err != nil {
			x.err = err
			return
		}
		x.write(base+csvMetaFile, meta)
	}
}
