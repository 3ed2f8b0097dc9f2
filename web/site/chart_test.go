package site

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// render renders c and parses it.
func render(t *testing.T, c templ.Component) *goquery.Document {
	t.Helper()
	var b strings.Builder
	if err := c.Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// numbers returns a rendered chart's table of numbers, row by row.
func numbers(doc *goquery.Document) [][]string {
	var out [][]string
	doc.Find(`[data-testid="chart-numbers"] tbody tr`).Each(func(_ int, tr *goquery.Selection) {
		var row []string
		tr.Children().Each(func(_ int, c *goquery.Selection) { row = append(row, c.Text()) })
		out = append(out, row)
	})
	return out
}

// checkAccessible checks what every chart must carry: an SVG named by its
// <title> and <desc>, and its numbers as a table.
func checkAccessible(t *testing.T, name string, doc *goquery.Document) {
	t.Helper()
	svg := doc.Find("svg.pub-svg")
	ids := strings.Fields(svg.AttrOr("aria-labelledby", ""))
	if svg.AttrOr("role", "") != "img" || len(ids) != 2 {
		t.Fatalf("%s: svg role %q, labelled by %v", name, svg.AttrOr("role", ""), ids)
	}
	if title := doc.Find("svg > title#" + ids[0]).Text(); title == "" {
		t.Errorf("%s: no <title>", name)
	}
	if desc := doc.Find("svg > desc#" + ids[1]).Text(); len(desc) < 20 {
		t.Errorf("%s: <desc> %q", name, desc)
	}
	if doc.Find(`[data-testid="chart-numbers"] table caption`).Text() == "" || len(numbers(doc)) == 0 {
		t.Errorf("%s: no table of numbers", name)
	}
}

func TestBumpChart(t *testing.T) {
	p := ui.Page{Lang: i18n.En}
	hist := map[string][]projections.RankPoint{
		"a": {{Edition: 1, Rank: 2, Total: 700}, {Edition: 2, Rank: 1, Total: 720}, {Edition: 3, Rank: 1, Total: 730}},
		"b": {{Edition: 1, Rank: 1, Total: 710}, {Edition: 2, Rank: 2, Total: 700}, {Edition: 3, Rank: 2, Total: 700}},
		"c": {{Edition: 2, Rank: 14, Total: 300}, {Edition: 3, Rank: 3, Total: 650}}, // new in edition 2, far down
	}
	names := map[string]string{"a": "Alpha", "b": "Beta", "c": "Gamma"}
	c := bumpOf(p, []string{"a", "b", "c"}, hist, names, "c")
	doc := render(t, bumpFigure(p, c, "bump"))
	checkAccessible(t, "bump", doc)
	want := [][]string{{"Alpha", "2", "1", "1"}, {"Beta", "1", "2", "2"}, {"Gamma", "–", "14", "3"}}
	if got := numbers(doc); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("numbers %v, want %v", got, want)
	}
	// Rank 1 is drawn above rank 2, and a rank below the chart's rows on
	// the row marked "> n" under them.
	ys := func(s bumpSeries) []int {
		var out []int
		for _, m := range s.Marks {
			out = append(out, m.Y)
		}
		return out
	}
	a, b, g := ys(c.Series[0]), ys(c.Series[1]), ys(c.Series[2])
	if !(a[1] < b[1] && a[0] > b[0]) || !(g[0] > b[0] && g[1] > b[1]) {
		t.Errorf("marks: alpha %v, beta %v, gamma %v", a, b, g)
	}
	if !c.Series[2].Focus || c.Series[0].Focus || doc.Find(".pub-focus").Length() != 1 {
		t.Error("the entry in view is not the one series drawn as the focus")
	}
	if !strings.HasPrefix(c.Desc, p.T("glance.bump_desc")+" Gamma") {
		t.Errorf("the description does not name the entry in view first: %q", c.Desc)
	}
	// Series differ by marker shape as well as colour.
	if !strings.Contains(c.Series[0].Marks[0].Path(), "a") || !strings.Contains(c.Series[1].Marks[0].Path(), "h") {
		t.Errorf("markers %q and %q", c.Series[0].Marks[0].Path(), c.Series[1].Marks[0].Path())
	}
}

func TestRankSpark(t *testing.T) {
	p := ui.Page{Lang: i18n.En}
	s := rankSpark(p, []projections.RankPoint{{Edition: 3, Rank: 5}, {Edition: 4, Rank: 2}, {Edition: 5, Rank: 2}})
	if s.Title != "Rank from edition 3 to 5: 5, 2, 2" || s.Points == "" {
		t.Errorf("spark %+v", s)
	}
	if one := rankSpark(p, []projections.RankPoint{{Edition: 1, Rank: 1}}); one.Points != "" {
		t.Error("a line drawn for one edition")
	}
}

func TestWaterfallChart(t *testing.T) {
	p := ui.Page{Lang: i18n.En}
	// 9th before; its own scores lift it to 6th, the others' to 7th, the
	// methodology to 5th.
	m := domain.MoveSplit{RankFrom: 9, RankOwn: 6, RankOthers: 7, RankTo: 5, TotalFrom: 400, TotalTo: 520}
	c := waterfallOf(p, m, 3, 4)
	doc := render(t, waterfallFigure(p, c))
	checkAccessible(t, "waterfall", doc)
	var kinds []string
	doc.Find(`[data-testid="why-bar"]`).Each(func(_ int, s *goquery.Selection) { kinds = append(kinds, s.AttrOr("data-kind", "")) })
	if !slices.Equal(kinds, []string{"start", "up", "down", "up", "end"}) {
		t.Errorf("bars %v", kinds)
	}
	want := [][]string{{"Its own scores", "up 3", "#6"}, {"Other entries' scores", "down 1", "#7"}, {"Methodology", "up 2", "#5"}}
	got := numbers(doc)
	for i := range want {
		if len(got) != 3 || got[i][0] != want[i][0] || !strings.Contains(strings.ToLower(got[i][1]), want[i][1]) || got[i][2] != want[i][2] {
			t.Fatalf("numbers %v, want like %v", got, want)
		}
	}
	// A bar spans the ranks before and after its step: the same
	// scale for all, rank 9 lower than rank 5.
	own, end, start := c.Bars[1], c.Bars[4], c.Bars[0]
	if own.Y+own.H != start.Y || end.Y >= own.Y || start.Y+start.H != c.PlotB {
		t.Errorf("geometry: start %+v, own %+v, end %+v", start, own, end)
	}
}

func TestScoreHistoryChart(t *testing.T) {
	p := ui.Page{Lang: i18n.En}
	seven, four, nine := 7, 4, 9
	changes := []projections.PublishedChange{
		{Edition: 1, EditionChange: projections.EditionChange{Target: "score:perf", ToScore: &seven}},
		{Edition: 3, EditionChange: projections.EditionChange{Target: "score:perf", FromScore: &seven, ToScore: &four}},
		{Edition: 2, EditionChange: projections.EditionChange{Target: "score:price", ToScore: &nine}},
		{Edition: 2, EditionChange: projections.EditionChange{Target: "attr:region"}},
	}
	crit := []criterionView{{Slug: "perf", Name: "Performance"}, {Slug: "price", Name: "Price"}, {Slug: "support", Name: "Support"}}
	c := scoreHistoryOf(p, crit, changes, 1, 3)
	doc := render(t, scoreHistoryFigure(p, c))
	checkAccessible(t, "score history", doc)
	want := [][]string{{"Performance", "7", "7", "4"}, {"Price", "–", "9", "9"}, {"Support", "–", "–", "–"}}
	if got := numbers(doc); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("numbers %v, want %v", got, want)
	}
	if c.Bands[0].Value.Text != "4" || c.Bands[2].Points != "" {
		t.Errorf("bands: %+v", c.Bands)
	}
	// A score of 9 sits higher in its band than 4 in its own.
	b0, b1 := c.Bands[0], c.Bands[1]
	last := func(b scoreBand) int { return b.Marks[len(b.Marks)-1].Y }
	if last(b1)-b1.Top >= last(b0)-b0.Top {
		t.Errorf("9 drawn at %d in its band, 4 at %d", last(b1)-b1.Top, last(b0)-b0.Top)
	}
}

func TestCompareBars(t *testing.T) {
	p := ui.Page{Lang: i18n.En}
	v := compareView{Page: p, Columns: []compareColumn{{Slug: "a", Name: "Alpha"}, {Slug: "b", Name: "Beta"}},
		Criteria: []compareCriterion{
			{Name: "Performance", Cells: []compareCell{{Score: "10"}, {Score: "5"}}},
			{Name: "Price", Cells: []compareCell{{Score: "—"}, {Score: "0"}}},
		}}
	c := compareBarsOf(p, v)
	doc := render(t, compareBarsFigure(p, c))
	checkAccessible(t, "compare", doc)
	want := [][]string{{"Performance", "10", "5"}, {"Price", "–", "0"}}
	if got := numbers(doc); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("numbers %v, want %v", got, want)
	}
	var vals []string
	doc.Find(`[data-testid="compare-bar"]`).Each(func(_ int, s *goquery.Selection) {
		w, _ := strconv.Atoi(s.AttrOr("width", ""))
		vals = append(vals, s.AttrOr("data-value", "")+"@"+strconv.Itoa(w))
	})
	full := c.PlotR - c.PlotL
	if !slices.Equal(vals, []string{"10@" + strconv.Itoa(full), "5@" + strconv.Itoa(full/2), "0@1"}) {
		t.Errorf("bars %v (full width %d)", vals, full)
	}
	// Entries differ by pattern, not colour alone.
	if fills := doc.Find(`rect.pub-bar[fill]`).Length(); fills == 0 {
		t.Error("no bar carries a pattern")
	}
}

func TestIntervalChart(t *testing.T) {
	p := ui.Page{Lang: i18n.En}
	stab := map[string]domain.EntryStability{
		"a": {Others: 0, Best: 1, Worst: 1, Tier: 1},
		"b": {Others: 1, Best: 2, Worst: 3, Tier: 2},
		"c": {Others: 1, Best: 2, Worst: 3, Tier: 2},
	}
	rows := []entryRow{{Slug: "a", Name: "Alpha", Rank: 1}, {Slug: "b", Name: "Beta", Rank: 2}, {Slug: "c", Name: "Gamma", Rank: 3}}
	c := intervalOf(p, rows, stab)
	doc := render(t, intervalFigure(p, c))
	checkAccessible(t, "interval", doc)
	want := [][]string{{"Alpha", "1", "1", "1", "1"}, {"Beta", "2", "2", "3", "2"}, {"Gamma", "3", "2", "3", "2"}}
	if got := numbers(doc); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("numbers %v, want %v", got, want)
	}
	if doc.Find(".pub-reach-line").Length() != 2 || !c.Rows[1].TierBorder || c.Rows[2].TierBorder {
		t.Errorf("%d reach lines; tier borders %v %v", doc.Find(".pub-reach-line").Length(), c.Rows[1].TierBorder, c.Rows[2].TierBorder)
	}
}

// TestDarkTheme: the stylesheets follow the system's dark preference,
// let the switch's choice override it either way, and give the charts'
// series colours for both themes.
func TestDarkTheme(t *testing.T) {
	app, err := os.ReadFile("../ui/static/app.css")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := os.ReadFile("../ui/static/public.css")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"color-scheme: light dark", "@media (prefers-color-scheme: dark)", `:root:not([data-theme="light"])`,
		`:root[data-theme="dark"]`, "outline: 3px solid var(--focus-ring)"} {
		if !strings.Contains(string(app), want) {
			t.Errorf("app.css lacks %q", want)
		}
	}
	for _, want := range []string{`:root[data-theme="dark"] .pub`, `:root:not([data-theme="light"]) .pub`, "--s0:", ".pub-focus"} {
		if !strings.Contains(string(pub), want) {
			t.Errorf("public.css lacks %q", want)
		}
	}
	js, err := os.ReadFile("../ui/static/app.js")
	if err != nil || !strings.Contains(string(js), `localStorage.setItem("crossrank-theme"`) {
		t.Errorf("app.js does not remember the theme (%v)", err)
	}
}
