package site

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// linkSet builds the public site's addresses. Served live they are the
// server's paths ("/r/gpu-cloud/e/ppio"); in a static export they are file
// names relative to the page being written ("../e/ppio.html"), so the
// folder works from file:// and from any web server's sub-path.
//
// Every address is built from validated slugs and numbers, never from text
// a user typed, and goes into href as a plain string, so templ's URL
// sanitising still applies.
type linkSet struct {
	static bool
	lang   string // static: the language folder the page is in
	page   string // static: the page's file, relative to the language folder
	// captures says the server serves archived copies (never a static
	// export: it holds no captures).
	captures bool
	// bundles says each edition's signed bundle can be downloaded
	// (Config.Bundles, or an export that wrote them).
	bundles bool
	// origin is the site's public address, for permalinks taken elsewhere
	// (see Abs); "" when none is configured.
	origin string
}

// liveLinks are the server's own paths.
var liveLinks = linkSet{}

// staticLinks are links from the file page (relative to the lang folder).
func staticLinks(lang, page string) linkSet { return linkSet{static: true, lang: lang, page: page} }

// rel returns target (a file relative to the language folder) relative to
// the page.
func (l linkSet) rel(target string) string {
	up := strings.Repeat("../", strings.Count(l.page, "/"))
	if up == "" && target == "" {
		return "./"
	}
	return up + target
}

// root returns target, a file relative to the export's top folder.
func (l linkSet) root(target string) string { return l.rel("../" + target) }

// Static reports whether the links point into a static export.
func (l linkSet) Static() bool { return l.static }

// Capture is the archived copy of a body by its hex SHA-256; "" when
// these links have no copies to point to.
func (l linkSet) Capture(sha256 string) string {
	if l.static || !l.captures || !captureKey.MatchString(sha256) {
		return ""
	}
	return "/captures/" + sha256
}

// Home is the start page.
func (l linkSet) Home() string {
	if l.static {
		return l.rel("index.html")
	}
	return "/"
}

// rankingFile is the static file of a ranking view.
func rankingFile(slug, scenario, category string) string {
	if scenario == "" && category == "" {
		return "r/" + slug + "/index.html"
	}
	return "r/" + slug + "/view/" + orAll(scenario) + "/" + orAll(category) + ".html"
}

// pagedFile is the static file of page n of a view whose first page is
// name: "index.html", "index-2.html", …
func pagedFile(name string, n int) string {
	if n <= 1 {
		return name
	}
	return strings.TrimSuffix(name, ".html") + "-" + strconv.Itoa(n) + ".html"
}

// orAll names an unset choice in a static file name; "_all" is no slug
// (slugs hold no underscore).
func orAll(s string) string {
	if s == "" {
		return "_all"
	}
	return s
}

// Ranking is a ranking's page under a scenario and category ("" for the
// overall weights and every category).
func (l linkSet) Ranking(slug, scenario, category string) string {
	if l.static {
		return l.rel(rankingFile(slug, scenario, category))
	}
	q := url.Values{}
	if scenario != "" {
		q.Set("scenario", scenario)
	}
	if category != "" {
		q.Set("category", category)
	}
	return withQuery("/r/"+slug, q)
}

// RankingQuery is a ranking's page with a whole query (needs included);
// static exports have no needs or name filter: their files are a view's
// pages (pagedFile).
func (l linkSet) RankingQuery(slug string, q url.Values) string {
	if l.static {
		return l.rel(pagedFile(rankingFile(slug, q.Get("scenario"), q.Get("category")), ui.RequestedPage(q)))
	}
	return withQuery("/r/"+slug, q)
}

// RankingAction is where the needs form is sent.
func (l linkSet) RankingAction(slug string) string { return "/r/" + slug }

// Entry is an entry's page; anchor (without #) may be "".
func (l linkSet) Entry(slug, entry, anchor string) string {
	var p string
	if l.static {
		p = l.rel("r/" + slug + "/e/" + entry + ".html")
	} else {
		p = "/r/" + slug + "/e/" + entry
	}
	if anchor != "" {
		p += "#" + anchor
	}
	return p
}

// Editions is a ranking's edition list.
func (l linkSet) Editions(slug string) string {
	if l.static {
		return l.rel("r/" + slug + "/editions/index.html")
	}
	return "/r/" + slug + "/editions"
}

// Edition is one edition's changelog.
func (l linkSet) Edition(slug string, n int) string {
	if l.static {
		return l.rel("r/" + slug + "/editions/" + strconv.Itoa(n) + ".html")
	}
	return "/r/" + slug + "/editions/" + strconv.Itoa(n)
}

// Methodology is a ranking's methodology page.
func (l linkSet) Methodology(slug string) string {
	if l.static {
		return l.rel("r/" + slug + "/methodology.html")
	}
	return "/r/" + slug + "/methodology"
}

// Feed is the Atom feed of a ranking ("" for every ranking).
func (l linkSet) Feed(slug string) string {
	switch {
	case l.static && slug == "":
		return l.rel("feed.atom")
	case l.static:
		return l.rel("r/" + slug + "/feed.atom")
	case slug == "":
		return "/feed.atom"
	}
	return "/r/" + slug + "/feed.atom"
}

// API is the JSON of a ranking's published state.
func (l linkSet) API(slug string) string {
	if l.static {
		return l.root("api/v1/rankings/" + slug + ".json")
	}
	return "/api/v1/rankings/" + slug
}

// Record is where a reader sees what a proposal did to an entry: the
// entry page's public record (entry_record.go), live and exported alike.
func (l linkSet) Record(slug, entry, proposal string) string {
	return l.Entry(slug, entry, recordAnchor(proposal))
}

// Audit is the desk's audit trail of a proposal; a static export has no
// desk, so "" (no link).
func (l linkSet) Audit(proposal string) string {
	if l.static {
		return ""
	}
	return paths.Audit + "?proposal=" + url.QueryEscape(proposal)
}

// Asset is a static file (stylesheet, icon).
func (l linkSet) Asset(name string) string {
	if l.static {
		return l.root("static/" + name)
	}
	return ui.AssetURL(name)
}

// OtherLang is this page in the other language (static exports only).
func (l linkSet) OtherLang(lang string) string {
	return l.root(lang + "/" + l.page)
}

// withQuery appends q to p when it holds anything.
func withQuery(p string, q url.Values) string {
	if len(q) == 0 {
		return p
	}
	return p + "?" + q.Encode()
}

// or returns s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
