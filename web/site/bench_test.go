package site

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// benchRankingView is the model of a published ranking page of n entries
// scored on eight criteria, built as buildRanking builds it from the read
// models, so the benchmark measures the templates alone.
func benchRankingView(n int, lang string) rankingView {
	p := ui.Page{Lang: lang, Section: "rankings"}
	v := rankingView{Page: p, L: liveLinks, Slug: "gpu1k", Title: "GPU cloud platforms", Description: "A generated ranking.",
		Edition: 10, PublishedOn: p.Day("2026-03-01"), APIHref: liveLinks.API("gpu1k"),
		Live: liveUpdates{URL: "/events?since=117000", Ranking: "gpu1k"}}
	v.Page.Title = v.Title
	for c, w := range []int{20, 15, 15, 10, 10, 10, 10, 10} {
		v.Criteria = append(v.Criteria, criterionView{Slug: fmt.Sprintf("c%d", c+1), Name: fmt.Sprintf("Criterion %d", c+1), Weight: w})
	}
	for i, name := range []string{"", "training", "inference", "budget"} {
		v.Scenarios = append(v.Scenarios, choice{Value: name, Label: or(name, "Overall"), Href: "/r/gpu1k?scenario=" + name, Current: i == 0})
	}
	for k := range 5 {
		v.Categories = append(v.Categories, choice{Value: fmt.Sprintf("path%d", k), Label: fmt.Sprintf("Delivery path %d", k), Href: "/r/gpu1k", Current: k == 0})
	}
	v.Filters = []filterView{{Key: "where", Question: "Where must the data stay?", Options: []choice{
		{Label: "Any", Current: true}, {Value: "cn-north", Label: "cn-north"}, {Value: "overseas", Label: "overseas"}}}}
	v.Columns = rankingColumns(p, liveLinks, "gpu1k", viewQuery{}, v.Criteria, true)
	v.Tiers = true
	moves := map[string]*int{}
	hists := map[string][]projections.RankPoint{}
	names := map[string]string{}
	var top []string
	for i := range n {
		slug := fmt.Sprintf("platform-%05d", i)
		scores := map[string]int{}
		total := 0
		for c, cr := range v.Criteria {
			scores[cr.Slug] = (i*7 + c*3) % 11
			total += cr.Weight * scores[cr.Slug]
		}
		if d := i%5 - 2; i%7 != 0 {
			moves[slug] = &d
		} else {
			moves[slug] = nil
		}
		row := entryRow{Pos: i + 1, Rank: i + 1, Slug: slug, Name: "Platform " + slug, Category: "Delivery path 1",
			Href: liveLinks.Entry("gpu1k", slug, ""), Total: total, TotalText: totalText(total), Move: moveOf(p, moves, slug),
			Tier: 1 + i/7, TierTitle: "shares its tier with 6 other entries", Reach: fmt.Sprintf("%d–%d", max(1, i-3), i+4)}
		var hist []projections.RankPoint
		for ed := 1; ed <= 10; ed++ {
			hist = append(hist, projections.RankPoint{Edition: ed, Rank: i + 1 + (ed*i)%5, Total: total})
		}
		row.History = rankSpark(p, hist)
		if i < bumpTop {
			top = append(top, slug)
			hists[slug], names[slug] = hist, row.Name
		}
		for _, c := range v.Criteria {
			row.Scores = append(row.Scores, rowScore{Scored: true, Score: scores[c.Slug]})
		}
		v.Rows = append(v.Rows, row)
	}
	v.Bump = bumpOf(p, top, hists, names, "")
	return v
}

// BenchmarkRankingPage renders the public ranking page (templ, the shell
// included) for 60 entries (the demo's size) and 1,000 entries (the size
// `crossrank bench` loads), in both languages.
func BenchmarkRankingPage(b *testing.B) {
	for _, n := range []int{60, 1000} {
		for _, lang := range []string{i18n.En, i18n.Zh} {
			b.Run(fmt.Sprintf("entries=%d/lang=%s", n, lang), func(b *testing.B) {
				c := rankingPage(benchRankingView(n, lang))
				ctx := templ.WithNonce(context.Background(), "bench-nonce")
				w := &byteCount{}
				if err := c.Render(ctx, w); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(w.n)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if err := c.Render(ctx, io.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// byteCount counts the bytes written to it.
type byteCount struct{ n int64 }

func (w *byteCount) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }
