package bundle_test

import (
	"fmt"
	"testing"

	"github.com/crossrank/crossrank/events"
)

// The histories the vectors are written from: each small, each showing
// one part of the snapshot algorithm (docs/edition-bundle.md).

func basicHistory(t *testing.T) *vectorHistory {
	h := newHistory(t, "gpu-demo")
	h.actor, h.authVia = "admin", "cli"
	h.add(&events.RankingDefined{Slug: "gpu-demo", Title: text("GPU 云", "GPU cloud"), Categories: categories("cloud", "market"),
		Criteria: criteria("price", 60, "speed", 40), Attributes: []events.AttributeDef{{Key: "regions", Name: text("地区", "Regions")}},
		Quorum: events.QuorumPolicy{MinApprovals: 2, RequireEvidenceVerified: true}})
	h.actor = "r&d"
	h.add(&events.ScenariosSet{Scenarios: []events.Scenario{{Slug: "training", Name: text("训练", "Training"),
		Weights: map[string]int{"speed": 80, "price": 20}}}, Filters: []events.Filter{}})
	h.actor = "editor"
	h.evidence("p-lambda", "e1", "https://example.com/lambda?a=1&b=2")
	h.evidenceV1("p-nimbus", "e1")
	h.evidence("p-kite", "e1", "")
	h.evidence("p-kite", "e2", "https://example.com/kite")
	h.publish(events.EditionPublished{Number: 1, Proposals: []string{"p-lambda", "p-nimbus", "p-kite"},
		NewEntries: []events.PublishedEntry{
			entry("lambda", "cloud", text("兰姆达", "Lambda & Co <GPU>"), "p-lambda"),
			entry("nimbus", "market", text("云雨", "Nimbus"), "p-nimbus"),
			entry("kite", "cloud", text("风筝", "Kite \"quoted\"\u2028line"), "p-kite"),
		},
		Changes: []events.AppliedChange{
			change("p-lambda", "lambda", "score:price", score(8), "e1"),
			change("p-lambda", "lambda", "score:speed", score(9), "e1"),
			tagChange("p-lambda", "lambda", "regions", "us", "eu"),
			change("p-nimbus", "nimbus", "score:price", score(9), "e1"),
			change("p-nimbus", "nimbus", "score:speed", score(6), "e1"),
			change("p-kite", "kite", "score:price", score(5), "e1"),
			change("p-kite", "kite", "score:speed", score(10), "e2"),
		}}, 0)
	return h
}

func tiesVector(t *testing.T) vectorDef {
	h := newHistory(t, "ties")
	h.add(&events.RankingDefined{Slug: "ties", Title: text("平局", "Ties"), Categories: categories("x", "y"), Criteria: criteria("q", 50, "r", 50)})
	h.add(&events.ScenariosSet{Scenarios: []events.Scenario{
		{Slug: "r-only", Weights: map[string]int{"r": 100}},
		{Slug: "q-only", Weights: map[string]int{"q": 100}},
	}})
	news := []events.PublishedEntry{}
	for _, e := range [][2]string{{"b-two", "x"}, {"a-one", "y"}, {"c-three", "x"}, {"d-four", "y"}, {"e-five", "x"}, {"aa", "y"}} {
		news = append(news, entry(e[0], e[1], text(e[0], e[0]), "p-"+e[0]))
	}
	var changes []events.AppliedChange
	for _, s := range []struct {
		entry string
		q, r  int
	}{{"b-two", 4, 6}, {"a-one", 6, 4}, {"c-three", 5, 5}, {"d-four", 10, 0}, {"e-five", 0, 0}} {
		changes = append(changes, change("p-"+s.entry, s.entry, "score:q", score(s.q)), change("p-"+s.entry, s.entry, "score:r", score(s.r)))
	}
	h.publish(events.EditionPublished{Number: 1, Proposals: []string{"p-a-one"}, NewEntries: news, Changes: changes}, 0)
	return vectorDef{name: "ties", zip: h.bundle(vectorKey, 1), snapshots: h.snapshots,
		description: "Four entries total 500 and two 0 (one with no scores at all): ties break by slug, category ranks count within the order; two scenarios, stored out of slug order."}
}

func scenariosVector(t *testing.T) vectorDef {
	h := newHistory(t, "scen")
	h.add(&events.MethodologyPublished{Edition: 1, Proposal: "m1", Slug: "scen", Changes: []events.MethodologyChange{{Kind: "ranking_defined"}},
		Methodology: events.Methodology{Title: text("情景", "Scenarios"), Categories: categories("all"), Criteria: criteria("a", 30, "b", 30, "c", 40),
			Scenarios: []events.Scenario{
				{Slug: "zeta", Weights: map[string]int{"a": 100}},
				{Slug: "alpha", Weights: map[string]int{"b": 60, "ghost": 40}},
				{Slug: "mid", Weights: map[string]int{"a": 10, "b": 10, "c": 80}},
				{Slug: "flat", Weights: map[string]int{}},
			}, Filters: []events.Filter{}}})
	var changes []events.AppliedChange
	var news []events.PublishedEntry
	for i, s := range [][3]int{{9, 1, 5}, {2, 9, 7}, {5, 5, 9}, {7, 3, 2}} {
		slug := fmt.Sprintf("p%d", i+1)
		news = append(news, entry(slug, "all", text(slug, slug), "m1"))
		changes = append(changes, change("m1", slug, "score:a", score(s[0])), change("m1", slug, "score:b", score(s[1])), change("m1", slug, "score:c", score(s[2])))
	}
	h.publish(events.EditionPublished{Number: 1, Methodology: "m1", Proposals: []string{"m1"}, NewEntries: news, Changes: changes}, 0)
	return vectorDef{name: "scenarios", zip: h.bundle(vectorKey, 1), snapshots: h.snapshots,
		description: "A methodology published with the first edition; four scenarios, stored out of slug order: one names a criterion the methodology lacks (it counts nothing), one has no weights (every total 0: slug order)."}
}

func methodologyVector(t *testing.T) vectorDef {
	h := newHistory(t, "method")
	m := events.Methodology{Title: text("方法", "Method"), Categories: categories("c1", "c2"), Criteria: criteria("a", 50, "b", 50),
		Scenarios: []events.Scenario{{Slug: "fast", Weights: map[string]int{"a": 100}}}, Filters: []events.Filter{}}
	h.add(&events.MethodologyPublished{Edition: 1, Proposal: "m1", Slug: "method", Methodology: m, Changes: []events.MethodologyChange{{Kind: "ranking_defined"}}})
	h.publish(events.EditionPublished{Number: 1, Methodology: "m1", Proposals: []string{"m1", "px"},
		NewEntries: []events.PublishedEntry{entry("x", "c1", text("甲", "X"), "px"), entry("y", "c1", text("乙", "Y"), "px"), entry("z", "c2", text("丙", "Z"), "px")},
		Changes: []events.AppliedChange{
			change("px", "x", "score:a", score(9)), change("px", "x", "score:b", score(3)),
			change("px", "y", "score:a", score(4)), change("px", "y", "score:b", score(9)),
			change("px", "z", "score:a", score(6)), change("px", "z", "score:b", score(7)),
		}}, 0)
	m.Criteria = criteria("a", 70, "b", 30)
	h.add(&events.MethodologyPublished{Edition: 2, Proposal: "m2", Slug: "method", Methodology: m,
		Changes: []events.MethodologyChange{{Kind: "weight", Target: "a", From: "50", To: "70"}, {Kind: "weight", Target: "b", From: "50", To: "30"}}})
	h.publish(events.EditionPublished{Number: 2, Methodology: "m2", Proposals: []string{"m2"}}, 0)
	m.Criteria = criteria("a", 40, "c", 60)
	m.Scenarios = []events.Scenario{{Slug: "balanced", Weights: map[string]int{"a": 50, "c": 50}}}
	h.add(&events.MethodologyPublished{Edition: 3, Proposal: "m3", Slug: "method", Methodology: m,
		Changes: []events.MethodologyChange{{Kind: "criterion_retired", Target: "b"}, {Kind: "criterion_added", Target: "c"}}})
	cleared := func(entry string, from int) events.AppliedChange {
		c := change("m3", entry, "score:b", nil)
		c.FromScore = score(from)
		return c
	}
	h.publish(events.EditionPublished{Number: 3, Methodology: "m3", Proposals: []string{"m3", "pc"},
		Changes: []events.AppliedChange{cleared("x", 3), cleared("y", 9),
			change("pc", "x", "score:c", score(2)), change("pc", "y", "score:c", score(8)), change("pc", "z", "score:c", score(5))}}, 0)
	return vectorDef{name: "methodology", zip: h.bundle(vectorKey, 3), snapshots: h.snapshots,
		description: "Methodology through editions: edition 1 defines a and b (50/50); edition 2 changes only the weights (70/30) and no score, and the order moves; edition 3 retires b (clearing x's and y's b, not z's, which stays listed and counts nothing), adds c and replaces the scenarios."}
}

func legacyWeightsVector(t *testing.T) vectorDef {
	h := newHistory(t, "legacy")
	h.add(&events.RankingDefined{Slug: "legacy", Title: text("旧", "Legacy"), Categories: categories("c"), Criteria: criteria("p", 50, "s", 50)})
	h.publish(events.EditionPublished{Number: 1, Proposals: []string{"p1"},
		NewEntries: []events.PublishedEntry{entry("one", "c", text("一", "One"), "p1"), entry("two", "c", text("二", "Two"), "p1")},
		Changes: []events.AppliedChange{change("p1", "one", "score:p", score(3)), change("p1", "one", "score:s", score(9)),
			change("p1", "two", "score:p", score(7)), change("p1", "two", "score:s", score(4))}}, 0)
	h.add(&events.WeightsSet{Weights: map[string]int{"p": 80, "bogus": 20}})
	h.add(&events.ScenariosSet{Scenarios: []events.Scenario{{Slug: "speedy", Weights: map[string]int{"s": 100}}}})
	h.publish(events.EditionPublished{Number: 2, Proposals: []string{"p2"},
		Changes: []events.AppliedChange{change("p2", "one", "score:p", score(4))}}, 0)
	return vectorDef{name: "legacy-weights", zip: h.bundle(vectorKey, 2), snapshots: h.snapshots,
		description: "Weights set between editions by weights_set (stored before methodology was reviewed): p 80, s absent (0), an unknown key ignored; a scenario set between editions; edition 2 is computed under them."}
}

func partsHistory(t *testing.T) *vectorHistory {
	h := newHistory(t, "parts")
	h.add(&events.RankingDefined{Slug: "parts", Title: text("分批", "Parts"), Categories: categories("c", "d"), Criteria: criteria("a", 50, "b", 50)})
	h.publish(events.EditionPublished{Number: 1, Proposals: []string{"p0"},
		NewEntries: []events.PublishedEntry{entry("first", "c", text("首", "First"), "p0")},
		Changes:    []events.AppliedChange{change("p0", "first", "score:a", score(5)), change("p0", "first", "score:b", score(5))}}, 0)
	d := events.EditionPublished{Number: 2}
	for i := 1; i <= 24; i++ {
		slug, p, cat := fmt.Sprintf("e%02d", i), fmt.Sprintf("p%02d", i), []string{"c", "d"}[i%2]
		d.Proposals = append(d.Proposals, p)
		d.NewEntries = append(d.NewEntries, entry(slug, cat, text("条目"+slug, "Entry "+slug), p))
		d.Changes = append(d.Changes, change(p, slug, "score:a", score(i%11)), change(p, slug, "score:b", score((i*7)%11)))
	}
	d.Changes = append(d.Changes, change("p24", "first", "score:a", score(10)))
	h.publish(d, 1500)
	h.publish(events.EditionPublished{Number: 3, Proposals: []string{"p99"},
		Changes: []events.AppliedChange{change("p99", "e03", "score:b", score(0))}}, 0)
	return h
}

func attributesVector(t *testing.T) vectorDef {
	h := newHistory(t, "attrs")
	h.add(&events.RankingDefined{Slug: "attrs", Title: text("属性", "Attributes"), Categories: categories("c"), Criteria: criteria("k", 100)})
	h.publish(events.EditionPublished{Number: 1, Proposals: []string{"pm"},
		NewEntries: []events.PublishedEntry{entry("m", "c", text("米", "M"), "pm"), entry("n", "c", text("恩", "N"), "pm")},
		Changes: []events.AppliedChange{
			tagChange("pm", "m", "tags", "😀smile", "～full", "b", "a", "a"),
			change("pm", "m", "weird:k", score(7)),
			change("pm", "n", "score:k", score(3)),
			change("pm", "ghost", "score:k", score(9)),
			tagChange("pm", "n", "zone", "北京"),
			tagChange("pm", "n", "alpha", "x"),
		}}, 0)
	h.publish(events.EditionPublished{Number: 2, Proposals: []string{"pn"},
		Changes: []events.AppliedChange{
			tagChange("pn", "n", "zone"),
			{Proposal: "pn", Entry: "n", Target: "attr:alpha", FromTags: []string{"x"}, Evidence: []string{}},
			change("pn", "n", "score:k", nil),
			change("pn", "m", "k", score(6)),
		}}, 0)
	return vectorDef{name: "attributes", zip: h.bundle(vectorKey, 2), snapshots: h.snapshots,
		description: "Tags sorted by code point (U+FF5E before U+1F600, which UTF-16 order reverses), duplicates kept; a target \"weird:k\" and a target \"k\" are scores of k; a change to an entry never published is skipped; edition 2 removes an attribute by [] and one by an absent to_tags, and a score by an absent to_score."}
}
