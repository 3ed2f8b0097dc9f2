package site

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"io"
	"strconv"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// Structured data: schema.org in JSON-LD, so search engines and dataset
// indexes read the ranking without scraping it. Addresses are absolute
// when the site's public URL is known (linkSet.Abs): a JSON-LD processor
// given the block without the page's address (jsonld's toRDF, a dataset
// crawler's extract) drops every triple whose IRI is relative. Otherwise,
// and in a static export (hosted anywhere), they are the page's own links,
// resolved against the page. Everything comes from the page's view model,
// so the data and what the page shows cannot disagree.

// ldThing is a schema.org node; unset fields are left out.
type ldThing struct {
	Context       string    `json:"@context,omitempty"`
	Type          string    `json:"@type"`
	Name          string    `json:"name,omitempty"`
	Description   string    `json:"description,omitempty"`
	URL           string    `json:"url,omitempty"`
	Position      int       `json:"position,omitempty"`
	Version       string    `json:"version,omitempty"`
	DateModified  string    `json:"dateModified,omitempty"`
	License       string    `json:"license,omitempty"`
	Identifier    string    `json:"identifier,omitempty"`
	InLanguage    string    `json:"inLanguage,omitempty"`
	EncodingFmt   string    `json:"encodingFormat,omitempty"`
	ContentURL    string    `json:"contentUrl,omitempty"`
	Publisher     *ldThing  `json:"publisher,omitempty"`
	Creator       *ldThing  `json:"creator,omitempty"`
	NumberOfItems int       `json:"numberOfItems,omitempty"`
	ItemListOrder string    `json:"itemListOrder,omitempty"`
	Items         []ldThing `json:"itemListElement,omitempty"`
	Distribution  []ldThing `json:"distribution,omitempty"`
}

// ldScript is the body of a <script type="application/ld+json">: JSON
// whose <, > and & are escaped, so no text in it can end the element.
func ldScript(v ldThing) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // escapes HTML by default
	if err := enc.Encode(v); err != nil {
		return "{}" // only strings and ints: cannot fail
	}
	return buf.String()
}

// itemListOf is the ranking page's list as a schema.org ItemList: each
// row shown, at its place, with its name and entry page.
func itemListOf(v rankingView) string {
	// ItemList is no CreativeWork (no version, no inLanguage): the edition
	// shown goes in its description, as the page's heading says it.
	list := ldThing{Context: "https://schema.org", Type: "ItemList", Name: v.Title, Description: v.T("public.edition_title", v.Edition),
		ItemListOrder: "https://schema.org/ItemListOrderAscending", NumberOfItems: len(v.Rows)}
	for _, row := range v.Rows {
		list.Items = append(list.Items, ldThing{Type: "ListItem", Position: row.Pos, Name: row.Name, URL: v.L.Abs(row.Href)})
	}
	return ldScript(list)
}

// datasetView is what the editions page shows readers and machines about
// the newest edition: its downloads, license and citation.
type datasetView struct {
	Number      int // 0: nothing published
	License     string
	LicenseHref string
	Cite        citation
	Permalink   string
	CiteText    string
	BibHref     string // "" in a static export
	CSLHref     string
	JSONLD      string // the schema.org Dataset
}

// datasetOf describes the newest of editions (newest first) as a schema.org
// Dataset with its downloads.
func datasetOf(p ui.Page, l linkSet, def *domain.Ranking, editions []projections.EditionSummary) datasetView {
	if len(editions) == 0 {
		return datasetView{}
	}
	ed := editions[0]
	v := datasetView{Number: ed.Number, License: def.License, LicenseHref: licenseURL(def.License),
		Permalink: l.Abs(l.Edition(def.Slug, ed.Number))}
	if !l.Static() {
		// The citation files name the permalink, which a static export,
		// hosted anywhere, does not know.
		v.BibHref, v.CSLHref = l.Download(def.Slug, ed.Number, citeBibFile), l.Download(def.Slug, ed.Number, citeJSONFile)
	}
	v.Cite = citationOf(def, ed, v.Permalink)
	v.CiteText = v.Cite.Text(p.Lang)
	site := &ldThing{Type: "Organization", Name: v.Cite.Publisher}
	ds := ldThing{Context: "https://schema.org", Type: "Dataset", Name: def.Title.In(p.Lang),
		Description: def.Description.In(p.Lang), URL: l.Abs(l.Editions(def.Slug)), Version: strconv.Itoa(ed.Number),
		DateModified: ed.PublishedAt, License: v.LicenseHref, Identifier: "sha256:" + ed.SnapshotHash,
		InLanguage: p.HTMLLang(), Publisher: site, Creator: site}
	if ds.Description == "" {
		ds.Description = ds.Name // schema.org Dataset requires one
	}
	for _, f := range []struct{ file, format string }{{rankingCSVFile, "text/csv"}, {rankingJSONFile, "application/json"}} {
		ds.Distribution = append(ds.Distribution, ldThing{Type: "DataDownload", EncodingFmt: f.format,
			ContentURL: l.Abs(l.Download(def.Slug, ed.Number, f.file))})
	}
	v.JSONLD = ldScript(ds)
	return v
}

// editionsDataset reads what datasetOf needs for the editions page.
func editionsDataset(ctx context.Context, read *projections.Store, p ui.Page, l linkSet, slug string) (datasetView, error) {
	def, _, err := read.Definition(ctx, slug)
	if err != nil {
		return datasetView{}, err
	}
	list, err := read.Editions(ctx, slug, 1)
	return datasetOf(p, l, def, list), err
}

// jsonLD writes a JSON-LD data block. It is data, not script, so CSP does
// not apply to it; it carries the nonce anyway, like every script element
// of the site, so a stricter policy never flags it.
func jsonLD(body string) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		_, err := io.WriteString(w, `<script type="application/ld+json" nonce="`+html.EscapeString(templ.GetNonce(ctx))+`">`+body+"</script>")
		return err
	})
}
