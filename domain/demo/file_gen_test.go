package demo

import (
	"bytes"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/crossrank/crossrank/domain/rankfile"
)

// TestGenerateFile writes gpu-cloud.ranking.json from the Go content when
// CROSSRANK_WRITE_DEMO=1 (a one-off, kept until the Go content goes).
func TestGenerateFile(t *testing.T) {
	if os.Getenv("CROSSRANK_WRITE_DEMO") != "1" {
		t.Skip("set CROSSRANK_WRITE_DEMO=1 to write the demo file")
	}
	f := &rankfile.File{Slug: RankingSlug, Methodology: Methodology()}
	for _, p := range Platforms() {
		e := rankfile.Entry{Slug: p.Slug, Name: p.Name, Category: p.Category, Description: p.Description}
		for _, ev := range p.Evidence {
			e.Evidence = append(e.Evidence, rankfile.Evidence{Key: ev.Key, Claim: ev.Claim + " / " + ev.ClaimEn,
				SourceName: SourceName, Section: ev.Section, Excerpt: ev.Excerpt, ObservedOn: "2026-01-01",
				ValidForDays: ev.ValidForDays})
		}
		for _, s := range p.Scores {
			e.Scores = append(e.Scores, rankfile.Score{Criterion: s.Criterion, Value: s.Value,
				Rationale: s.Rationale + " / " + s.RationaleEn, Evidence: s.Evidence})
		}
		for _, k := range slices.Sorted(maps.Keys(p.Attributes)) {
			e.Attributes = append(e.Attributes, rankfile.Attribute{Key: k, Tags: p.Attributes[k],
				Rationale: "来源文章所述 / As stated in the source article", Evidence: p.AttributeEvidence[k]})
		}
		f.Entries = append(f.Entries, e)
	}
	var b bytes.Buffer
	if err := rankfile.Encode(&b, f); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("gpu-cloud.ranking.json", b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
