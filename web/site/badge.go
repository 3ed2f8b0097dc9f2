package site

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// Badges: an entry's rank in the newest edition, as an SVG image and as a
// Shields.io endpoint (https://shields.io/badges/endpoint-badge), for a
// README or a vendor's site. The bytes depend on the edition, the entry,
// the scenario and the language only, so they are cacheable and
// validated by their hash.

// badge is what a badge says.
type badge struct {
	Label   string // the ranking's title
	Message string // "#3 · Ed. 5"
	Color   string // a Shields.io colour name
	Href    string // the entry's page
}

// badgeColors maps the Shields.io colour names badges use to their hex.
var badgeColors = map[string]string{"brightgreen": "#4c1", "green": "#97ca00", "blue": "#007ec6", "lightgrey": "#9f9f9f"}

func badgeColor(rank int) string {
	switch {
	case rank == 1:
		return "brightgreen"
	case rank <= 3:
		return "green"
	case rank <= 10:
		return "blue"
	}
	return "lightgrey"
}

// badgeOf reads the badge of entry in the newest edition of slug, ranked
// overall or under scenario; ErrNotFound when the ranking, the scenario or
// the entry is not in that edition.
func (s *Site) badgeOf(ctx context.Context, r *http.Request) (badge, error) {
	slug, entry, scenario := r.PathValue("slug"), r.PathValue("entry"), r.URL.Query().Get("scenario")
	lang := i18n.En
	if r.URL.Query().Get("lang") == i18n.Zh {
		lang = i18n.Zh
	}
	def, latest, err := s.definition(ctx, slug)
	if err != nil {
		return badge{}, err
	}
	if latest == 0 {
		return badge{}, domain.ErrNotFound
	}
	d, err := s.read.PublishedSnapshot(ctx, slug, latest)
	if err != nil {
		return badge{}, err
	}
	rank := 0
	if scenario == "" {
		for _, e := range d.Entries {
			if e.Slug == entry {
				rank = e.Rank
			}
		}
	} else {
		for _, sc := range d.Scenarios {
			if sc.Slug != scenario {
				continue
			}
			for i, e := range sc.Order {
				if e == entry {
					rank = i + 1
				}
			}
		}
	}
	if rank == 0 {
		return badge{}, domain.ErrNotFound
	}
	label := def.Title.In(lang)
	if sc, ok := def.Scenario(scenario); ok && scenario != "" {
		label += " · " + sc.Name.In(lang)
	}
	return badge{Label: label, Message: "#" + strconv.Itoa(rank) + " · " + i18n.T(lang, "public.edition_short", latest),
		Color: badgeColor(rank), Href: s.requestOrigin(r) + liveLinks.Entry(slug, entry, "")}, nil
}

// textWidth estimates the width of s in 11px Verdana: wide (CJK) runes
// take about twice a Latin one. An estimate, but the same every time.
func textWidth(s string) int {
	w := 0
	for _, r := range s {
		switch {
		case r >= 0x1100 && utf8.RuneLen(r) >= 3:
			w += 12
		case r == 'i' || r == 'l' || r == '.' || r == ' ' || r == '·':
			w += 4
		default:
			w += 7
		}
	}
	return w + 10 // padding
}

// xmlText escapes s for XML text and attribute values.
func xmlText(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s)) // a bytes.Buffer does not fail
	return b.String()
}

// SVG draws the badge: a flat two-part label, linked to the entry page.
func (b badge) SVG() []byte {
	lw, mw := textWidth(b.Label), textWidth(b.Message)
	label, msg, title := xmlText(b.Label), xmlText(b.Message), xmlText(b.Label+": "+b.Message)
	var out bytes.Buffer
	fmt.Fprintf(&out, `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="%d" height="20" role="img" aria-label="%s">`, lw+mw, title)
	// href for SVG 2, xlink:href for SVG 1.1 renderers.
	fmt.Fprintf(&out, `<title>%s</title><a href="%s" xlink:href="%[2]s">`, title, xmlText(b.Href))
	fmt.Fprintf(&out, `<rect width="%d" height="20" fill="#555"/><rect x="%d" width="%d" height="20" fill="%s"/>`, lw, lw, mw, badgeColors[b.Color])
	out.WriteString(`<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,Noto Sans CJK SC,sans-serif" font-size="11">`)
	fmt.Fprintf(&out, `<text x="%d" y="14">%s</text><text x="%d" y="14">%s</text>`, lw/2, label, lw+mw/2, msg)
	out.WriteString("</g></a></svg>\n")
	return out.Bytes()
}

type shieldsEndpoint struct {
	SchemaVersion int    `json:"schemaVersion"`
	Label         string `json:"label"`
	Message       string `json:"message"`
	Color         string `json:"color"`
}

// badgeSVG serves GET /r/{slug}/e/{entry}/badge.svg.
func (s *Site) badgeSVG(w http.ResponseWriter, r *http.Request) {
	b, err := s.badgeOf(r.Context(), r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	serveFixed(w, r, fixedFile{Type: "image/svg+xml; charset=utf-8", Body: b.SVG()})
}

// badgeJSON serves GET /r/{slug}/e/{entry}/badge.json.
func (s *Site) badgeJSON(w http.ResponseWriter, r *http.Request) {
	b, err := s.badgeOf(r.Context(), r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	body, err := marshalJSON(shieldsEndpoint{SchemaVersion: 1, Label: b.Label, Message: b.Message, Color: b.Color})
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	serveFixed(w, r, fixedFile{Type: "application/json", Body: body})
}

// Abs is path as an address to take elsewhere: with the site's public
// origin when one is configured, else as it is.
func (l linkSet) Abs(path string) string {
	if l.static || l.origin == "" {
		return path
	}
	return l.origin + path
}

// Badge is an entry's badge image (live only: a static export has none).
func (l linkSet) Badge(slug, entry string) string { return "/r/" + slug + "/e/" + entry + "/badge.svg" }

// badgeAlt is the badge's alternative text.
func badgeAlt(v entryView) string {
	return v.T("badge.alt", v.Name, v.RankingTitle)
}

// badgeMarkdown is the Markdown that embeds the entry's badge, linked to
// its page. Brackets and parentheses in names would end Markdown's link
// syntax, so they are escaped.
func badgeMarkdown(v entryView) string {
	alt := mdEscaper.Replace(badgeAlt(v))
	return "[![" + alt + "](" + v.L.Abs(v.L.Badge(v.Slug, v.Entry)) + ")](" + v.L.Abs(v.L.Entry(v.Slug, v.Entry, "")) + ")"
}

var mdEscaper = strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`, `(`, `\(`, `)`, `\)`)

// badgeHTML is the HTML that embeds the entry's badge, linked to its page.
func badgeHTML(v entryView) string {
	return `<a href="` + html.EscapeString(v.L.Abs(v.L.Entry(v.Slug, v.Entry, ""))) + `"><img src="` +
		html.EscapeString(v.L.Abs(v.L.Badge(v.Slug, v.Entry))) + `" alt="` + html.EscapeString(badgeAlt(v)) + `"></a>`
}
