package site

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// Citations of an edition: biblatex, CSL-JSON (what Zotero and citeproc
// read) and a plain-text line on the editions page. Each names the site as
// author and publisher, the edition as version, its permalink (the
// edition's page) and, in the note, the snapshot hash the edition commits
// to, so a citation pins the exact data.

// Citation file names, as served under /r/{slug}/editions/{n}/.
const (
	citeBibFile  = "cite.bib"
	citeJSONFile = "cite.json"
)

// citation is what every form of a citation says.
type citation struct {
	Key       string  // BibTeX key, from slug and number
	Title     langMap // "<ranking> · Edition <n>"
	Publisher string  // the site's name
	Year      string
	Date      []int // year, month, day of publication
	Version   int
	URL       string // the permalink; path-absolute when no origin is known
	Hash      string // the snapshot's SHA-256, hex
}

func citationOf(def *domain.Ranking, ed projections.EditionSummary, permalink string) citation {
	c := citation{Key: "crossrank-" + def.Slug + "-" + strconv.Itoa(ed.Number), Title: editionTitle(def, ed.Number),
		Publisher: i18n.T(i18n.En, "app.name"), Version: ed.Number, URL: permalink, Hash: ed.SnapshotHash}
	if len(ed.PublishedAt) >= 10 {
		c.Year = ed.PublishedAt[:4]
		for _, p := range []string{ed.PublishedAt[:4], ed.PublishedAt[5:7], ed.PublishedAt[8:10]} {
			n, _ := strconv.Atoi(p) // RFC 3339, written by the projection
			c.Date = append(c.Date, n)
		}
	}
	return c
}

// bibEscaper escapes what LaTeX reads as commands in a BibTeX field.
var bibEscaper = strings.NewReplacer(`\`, `\textbackslash{}`, `{`, `\{`, `}`, `\}`, `&`, `\&`, `%`, `\%`,
	`$`, `\$`, `#`, `\#`, `_`, `\_`, `^`, `\^{}`, `~`, `\~{}`)

// BibTeX returns the citation as a biblatex @dataset entry with its full
// date, so biblatex, Zotero and citation-js keep it a dataset. Classic
// BibTeX styles know no @dataset; the comment above the entry says how to
// fall back. The comment holds no at sign: BibTeX reads one outside an
// entry as the start of an entry.
func (c citation) BibTeX() []byte {
	var b strings.Builder
	b.WriteString("% biblatex (biber) entry. For classic BibTeX, whose styles lack the dataset type,\n")
	fmt.Fprintf(&b, "%% change the type to misc and the date to: year = {%s}\n", c.Year)
	fmt.Fprintf(&b, "@dataset{%s,\n", c.Key)
	field := func(k, v string) { fmt.Fprintf(&b, "  %-9s = {%s},\n", k, v) }
	field("title", bibEscaper.Replace(c.Title.En))
	// The site is an organisation, a literal name in CSL: the inner
	// braces keep BibTeX and biblatex from splitting it into given and
	// family names, and Zotero imports it as one field. citation-js still
	// reads any single BibTeX name as {family: …}: BibTeX has no way to
	// say literal, and cite.json is the form that says it exactly.
	field("author", "{"+bibEscaper.Replace(c.Publisher)+"}")
	field("publisher", bibEscaper.Replace(c.Publisher))
	if len(c.Date) == 3 {
		field("date", fmt.Sprintf("%04d-%02d-%02d", c.Date[0], c.Date[1], c.Date[2]))
	} else {
		field("year", c.Year)
	}
	field("version", strconv.Itoa(c.Version))
	field("url", c.URL)
	field("note", "Edition "+strconv.Itoa(c.Version)+", snapshot SHA-256 "+c.Hash)
	b.WriteString("}\n")
	return []byte(b.String())
}

type cslName struct {
	Literal string `json:"literal"`
}

type cslDate struct {
	DateParts [][]int `json:"date-parts"`
}

type cslItem struct {
	ID        string    `json:"id"`
	Type      string    `json:"type"`
	Title     string    `json:"title"`
	Author    []cslName `json:"author"`
	Publisher string    `json:"publisher"`
	Issued    cslDate   `json:"issued"`
	Version   string    `json:"version"`
	URL       string    `json:"URL"`
	Note      string    `json:"note"`
}

// CSL returns the citation as CSL-JSON: an array of one item.
func (c citation) CSL() ([]byte, error) {
	return marshalJSON([]cslItem{{ID: c.Key, Type: "dataset", Title: c.Title.En, Author: []cslName{{Literal: c.Publisher}},
		Publisher: c.Publisher, Issued: cslDate{DateParts: [][]int{c.Date}}, Version: strconv.Itoa(c.Version), URL: c.URL,
		Note: "snapshot SHA-256 " + c.Hash}})
}

// Text is the plain-text citation in lang, without the permalink (the
// page links it beside the text).
func (c citation) Text(lang string) string {
	title := c.Title.En
	if lang == i18n.Zh {
		title = c.Title.Zh
	}
	return i18n.T(lang, "cite.text", c.Publisher, c.Year, title, c.Hash)
}

// hostPattern is what a request's Host may be to enter a permalink.
var hostPattern = regexp.MustCompile(`^[A-Za-z0-9.-]+(:[0-9]+)?$|^\[[0-9A-Fa-f:.]+\](:[0-9]+)?$`)

// requestOrigin is the site's public address, for permalinks in files read
// away from the site: Config.Origin, else the scheme and host the request
// came to; "" when the Host is not a plain name.
func (s *Site) requestOrigin(r *http.Request) string {
	if s.origin != "" {
		return s.origin
	}
	if !hostPattern.MatchString(r.Host) {
		return ""
	}
	scheme := "http"
	if s.secure || r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// citationFor reads the citation of the edition the path names.
func (s *Site) citationFor(r *http.Request) (citation, error) {
	d, err := s.editionSnapshot(r.Context(), r)
	if err != nil {
		return citation{}, err
	}
	def, _, err := s.definition(r.Context(), d.Ranking)
	if err != nil {
		return citation{}, err
	}
	ref := projections.EditionSummary{Ranking: d.Ranking, Number: d.Number, PublishedAt: d.PublishedAt, SnapshotHash: d.SnapshotHash}
	return citationOf(def, ref, s.requestOrigin(r)+liveLinks.Edition(d.Ranking, d.Number)), nil
}

// citeBib serves GET /r/{slug}/editions/{n}/cite.bib.
func (s *Site) citeBib(w http.ResponseWriter, r *http.Request) {
	c, err := s.citationFor(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	serveFixed(w, r, fixedFile{Type: "application/x-bibtex; charset=utf-8", Body: c.BibTeX()})
}

// citeJSON serves GET /r/{slug}/editions/{n}/cite.json.
func (s *Site) citeJSON(w http.ResponseWriter, r *http.Request) {
	c, err := s.citationFor(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	body, err := c.CSL()
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	serveFixed(w, r, fixedFile{Type: "application/vnd.citationstyles.csl+json", Body: body})
}
