package rankfile

import (
	"fmt"
	"math/rand/v2"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// Size is the shape of a generated ranking file.
type Size struct {
	Entries  int
	Criteria int // 1–100; the weights share 100 among them
	Evidence int // evidence items per entry; every score cites one
	Seed     uint64
}

// Generate writes a ranking file for a new ranking named slug, with
// entries in two categories and scores drawn from seed: the same Size
// gives the same file, byte for byte. Tests and the bench import it at
// real size (10,000 entries × 10 criteria × 3 evidence items).
func Generate(slug string, n Size) *File {
	rng := rand.New(rand.NewPCG(n.Seed, 0x72616e6b66696c65))
	text := func(zh, en string) events.Text { return events.Text{Zh: zh, En: en} }
	m := events.Methodology{Title: text("生成的榜单", "Generated ranking"), Description: text("测试用", "For tests"),
		Categories: []events.Category{{Slug: "cloud", Name: text("云", "Cloud"), Description: text("云", "Cloud")},
			{Slug: "edge", Name: text("边缘", "Edge"), Description: text("边缘", "Edge")}},
		Quorum: events.QuorumPolicy{MinApprovals: 2, RequireEvidenceVerified: true}}
	for c := range n.Criteria {
		w := 100 / n.Criteria
		if c == 0 {
			w += 100 % n.Criteria
		}
		m.Criteria = append(m.Criteria, events.Criterion{Slug: fmt.Sprintf("k%02d", c), Name: text(fmt.Sprintf("指标%d", c), fmt.Sprintf("Criterion %d", c)),
			Description: text("指标", "Criterion"), Weight: w})
	}
	f := &File{Format: Format, Slug: slug, Methodology: m}
	for i := range n.Entries {
		e := Entry{Slug: fmt.Sprintf("entry-%05d", i), Name: text(fmt.Sprintf("条目%d", i), fmt.Sprintf("Entry %d", i)),
			Category: m.Categories[i%2].Slug}
		for j := range n.Evidence {
			e.Evidence = append(e.Evidence, Evidence{Key: fmt.Sprintf("s%d", j), Claim: domain.TextField{En: fmt.Sprintf("Claim %d", j)},
				SourceURL: fmt.Sprintf("https://example.com/%d/%d", i, j), Excerpt: fmt.Sprintf("Excerpt %d of entry %d", j, i),
				ObservedOn: "2026-11-01"})
		}
		for c := range n.Criteria {
			s := Score{Criterion: m.Criteria[c].Slug, Value: rng.IntN(11), Rationale: domain.TextField{En: "Generated"}}
			if n.Evidence > 0 {
				s.Evidence = []string{fmt.Sprintf("s%d", c%n.Evidence)}
			}
			e.Scores = append(e.Scores, s)
		}
		f.Entries = append(f.Entries, e)
	}
	return f
}
