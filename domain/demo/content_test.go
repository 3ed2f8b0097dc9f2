package demo

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/crossrank/crossrank/events"
)

// seedEnv names a file to check the excerpts against instead of the default.
const seedEnv = "CROSSRANK_SEED_ARTICLE"

// defaultSeed is the source article relative to this package's directory,
// which is the working directory of `go test`.
var defaultSeed = filepath.Join("..", "..", "..", "shared", "seed", "004_f36d2dba66309d29.txt")

var (
	slugRE    = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,59}$`)
	sectionRE = regexp.MustCompile(`^§(0|[1-9]|10)$`)
)

const maxExcerptRunes = 200

func checkSlug(t *testing.T, what, s string) {
	t.Helper()
	if !slugRE.MatchString(s) {
		t.Errorf("%s %q is not a slug of [a-z0-9-]", what, s)
	}
}

func checkText(t *testing.T, what string, tx events.Text) {
	t.Helper()
	if strings.TrimSpace(tx.Zh) == "" || strings.TrimSpace(tx.En) == "" {
		t.Errorf("%s is not bilingual: %+v", what, tx)
	}
}

func checkWeights(t *testing.T, what string, w map[string]int, criteria []string) {
	t.Helper()
	if got, want := slices.Sorted(maps.Keys(w)), slices.Sorted(slices.Values(criteria)); !slices.Equal(got, want) {
		t.Errorf("%s weighs %v, want exactly the criteria %v", what, got, want)
	}
	sum := 0
	for c, v := range w {
		if v < 0 || v > 100 {
			t.Errorf("%s: weight of %s is %d, want 0–100", what, c, v)
		}
		sum += v
	}
	if sum != 100 {
		t.Errorf("%s: weights sum to %d, want 100", what, sum)
	}
}

// declaredTags maps each attribute key to its set of declared tags.
func declaredTags(d events.RankingDefined) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, a := range d.Attributes {
		out[a.Key] = map[string]bool{}
		for _, v := range a.Values {
			out[a.Key][v.Value] = true
		}
	}
	return out
}

func criterionSlugs(d events.RankingDefined) []string {
	var out []string
	for _, c := range d.Criteria {
		out = append(out, c.Slug)
	}
	return out
}

func TestDefinition(t *testing.T) {
	d := Definition()
	if d.Slug != RankingSlug {
		t.Errorf("slug = %q, want %q", d.Slug, RankingSlug)
	}
	checkSlug(t, "ranking", d.Slug)
	checkText(t, "title", d.Title)
	checkText(t, "description", d.Description)
	if want := (events.QuorumPolicy{MinApprovals: 2, RequireEvidenceVerified: true}); d.Quorum != want {
		t.Errorf("quorum = %+v, want %+v", d.Quorum, want)
	}
	if !d.Illustrative {
		t.Error("the demo ranking is not marked illustrative: its methodology page would not say the scores are examples")
	}
	if SourceName == "" || SourceURL != "" {
		t.Errorf("source = %q %q, want a name and no URL", SourceName, SourceURL)
	}

	var cats []string
	for _, c := range d.Categories {
		checkSlug(t, "category", c.Slug)
		checkText(t, "category "+c.Slug+" name", c.Name)
		checkText(t, "category "+c.Slug+" description", c.Description)
		cats = append(cats, c.Slug)
	}
	if want := []string{"specialist", "public-cloud", "ai-cloud", "lightweight"}; !slices.Equal(cats, want) {
		t.Errorf("categories = %v, want %v", cats, want)
	}

	weights := map[string]int{}
	for _, c := range d.Criteria {
		checkSlug(t, "criterion", c.Slug)
		checkText(t, "criterion "+c.Slug+" name", c.Name)
		checkText(t, "criterion "+c.Slug+" description", c.Description)
		if _, dup := weights[c.Slug]; dup {
			t.Errorf("criterion %s repeats", c.Slug)
		}
		if c.Weight <= 0 {
			t.Errorf("criterion %s has weight %d, want > 0", c.Slug, c.Weight)
		}
		weights[c.Slug] = c.Weight
	}
	checkWeights(t, "definition", weights, criterionSlugs(d))

	seen := map[string]bool{}
	for _, a := range d.Attributes {
		checkSlug(t, "attribute", a.Key)
		checkText(t, "attribute "+a.Key, a.Name)
		if seen[a.Key] {
			t.Errorf("attribute %s repeats", a.Key)
		}
		seen[a.Key] = true
		if len(a.Values) == 0 {
			t.Errorf("attribute %s declares no tags", a.Key)
		}
		tags := map[string]bool{}
		for _, v := range a.Values {
			checkSlug(t, "tag of "+a.Key, v.Value)
			checkText(t, "tag "+a.Key+"/"+v.Value, v.Label)
			if tags[v.Value] {
				t.Errorf("attribute %s repeats tag %s", a.Key, v.Value)
			}
			tags[v.Value] = true
		}
	}
}

// meets reports whether a platform's attributes satisfy a requirement.
func meets(p Platform, r events.Requirement) bool {
	return slices.ContainsFunc(p.Attributes[r.Attribute], func(tag string) bool { return slices.Contains(r.AnyOf, tag) })
}

func TestScenarios(t *testing.T) {
	d, s := Definition(), Scenarios()
	var slugs []string
	for _, sc := range s.Scenarios {
		checkText(t, "scenario "+sc.Slug+" name", sc.Name)
		checkText(t, "scenario "+sc.Slug+" description", sc.Description)
		checkWeights(t, "scenario "+sc.Slug, sc.Weights, criterionSlugs(d))
		slugs = append(slugs, sc.Slug)
	}
	if want := []string{"training", "inference", "scientific", "graphics"}; !slices.Equal(slugs, want) {
		t.Errorf("scenarios = %v, want %v", slugs, want)
	}

	tags := declaredTags(d)
	platforms := Platforms()
	var keys []string
	for _, f := range s.Filters {
		checkSlug(t, "filter", f.Key)
		checkText(t, "filter "+f.Key+" question", f.Question)
		keys = append(keys, f.Key)
		if len(f.Options) < 2 {
			t.Errorf("filter %s has %d options, want ≥ 2", f.Key, len(f.Options))
		}
		values := map[string]bool{}
		for _, o := range f.Options {
			where := "filter " + f.Key + " option " + o.Value
			checkSlug(t, where, o.Value)
			checkText(t, where+" label", o.Label)
			if values[o.Value] {
				t.Errorf("%s repeats", where)
			}
			values[o.Value] = true
			for _, r := range o.Requires {
				checkText(t, where+" reason", r.Reason)
				declared, ok := tags[r.Attribute]
				if !ok {
					t.Errorf("%s requires undeclared attribute %q", where, r.Attribute)
				}
				if len(r.AnyOf) == 0 {
					t.Errorf("%s requires %s with no tags", where, r.Attribute)
				}
				for _, tag := range r.AnyOf {
					if !declared[tag] {
						t.Errorf("%s requires undeclared tag %s/%s", where, r.Attribute, tag)
					}
				}
			}
			if len(o.Requires) == 0 {
				continue
			}
			// An option that asks for something must tell the platforms apart.
			kept := 0
			for _, p := range platforms {
				if !slices.ContainsFunc(o.Requires, func(r events.Requirement) bool { return !meets(p, r) }) {
					kept++
				}
			}
			if kept == 0 || kept == len(platforms) {
				t.Errorf("%s keeps %d of %d platforms, want some but not all", where, kept, len(platforms))
			}
		}
	}
	if want := []string{"workload", "scale", "system-access", "data-location", "interruptible", "duration"}; !slices.Equal(keys, want) {
		t.Errorf("filters = %v, want %v", keys, want)
	}
}

func TestPlatforms(t *testing.T) {
	d := Definition()
	tags := declaredTags(d)
	criteria := map[string]bool{}
	for _, c := range d.Criteria {
		criteria[c.Slug] = true
	}
	categories := map[string]bool{}
	for _, c := range d.Categories {
		categories[c.Slug] = true
	}

	ps := Platforms()
	var slugs []string
	used := map[string]bool{}
	for i, p := range ps {
		slugs = append(slugs, p.Slug)
		checkSlug(t, "platform", p.Slug)
		checkText(t, p.Slug+" name", p.Name)
		checkText(t, p.Slug+" description", p.Description)
		if !categories[p.Category] {
			t.Errorf("%s: unknown category %q", p.Slug, p.Category)
		}
		used[p.Category] = true
		if want := "§" + strconv.Itoa(i+1); p.Section != want {
			t.Errorf("%s: section %q, want %q (the article's order)", p.Slug, p.Section, want)
		}

		evidence := map[string]bool{}
		for _, e := range p.Evidence {
			where := p.Slug + " evidence " + e.Key
			checkSlug(t, where, e.Key)
			if evidence[e.Key] {
				t.Errorf("%s repeats", where)
			}
			evidence[e.Key] = true
			if strings.TrimSpace(e.Claim) == "" || strings.TrimSpace(e.ClaimEn) == "" {
				t.Errorf("%s: claim missing in a language", where)
			}
			if strings.TrimSpace(e.Excerpt) == "" {
				t.Errorf("%s: empty excerpt", where)
			}
			if n := utf8.RuneCountInString(e.Excerpt); n > maxExcerptRunes {
				t.Errorf("%s: excerpt is %d runes, want ≤ %d", where, n, maxExcerptRunes)
			}
			if !sectionRE.MatchString(e.Section) {
				t.Errorf("%s: section %q, want §0–§10", where, e.Section)
			}
			if e.ValidForDays < 0 {
				t.Errorf("%s: valid for %d days", where, e.ValidForDays)
			}
		}

		for key, values := range p.Attributes {
			declared, ok := tags[key]
			if !ok {
				t.Errorf("%s: undeclared attribute %q", p.Slug, key)
			}
			if len(values) == 0 {
				t.Errorf("%s: attribute %s has no tags", p.Slug, key)
			}
			seen := map[string]bool{}
			for _, v := range values {
				if !declared[v] {
					t.Errorf("%s: undeclared tag %s/%s", p.Slug, key, v)
				}
				if seen[v] {
					t.Errorf("%s: tag %s/%s repeats", p.Slug, key, v)
				}
				seen[v] = true
			}
			if len(p.AttributeEvidence[key]) == 0 {
				t.Errorf("%s: attribute %s has no evidence", p.Slug, key)
			}
		}
		for key, keys := range p.AttributeEvidence {
			if _, ok := p.Attributes[key]; !ok {
				t.Errorf("%s: evidence for attribute %s it does not carry", p.Slug, key)
			}
			for _, k := range keys {
				if !evidence[k] {
					t.Errorf("%s: attribute %s cites unknown evidence %q", p.Slug, key, k)
				}
			}
		}

		if len(p.Scores) == 0 {
			t.Errorf("%s has no scores", p.Slug)
		}
		scored := map[string]bool{}
		for _, s := range p.Scores {
			where := p.Slug + " score " + s.Criterion
			if !criteria[s.Criterion] {
				t.Errorf("%s: unknown criterion", where)
			}
			if scored[s.Criterion] {
				t.Errorf("%s repeats", where)
			}
			scored[s.Criterion] = true
			if s.Value < 0 || s.Value > 10 {
				t.Errorf("%s = %d, want 0–10", where, s.Value)
			}
			if strings.TrimSpace(s.Rationale) == "" || strings.TrimSpace(s.RationaleEn) == "" {
				t.Errorf("%s: rationale missing in a language", where)
			}
			if len(s.Evidence) == 0 {
				t.Errorf("%s cites no evidence", where)
			}
			for _, k := range s.Evidence {
				if !evidence[k] {
					t.Errorf("%s cites unknown evidence %q", where, k)
				}
			}
		}
	}

	want := []string{"zhixingyun", "aliyun", "tencent-cloud", "huawei-cloud", "volcengine", "qingcloud", "ppio", "matpool", "qingjiao"}
	if !slices.Equal(slugs, want) {
		t.Errorf("platforms = %v, want %v", slugs, want)
	}
	if len(used) != len(categories) {
		t.Errorf("platforms use %d of %d categories", len(used), len(categories))
	}
}

// readSeed returns the source article, or ok=false when it is not around.
func readSeed(t *testing.T) (text string, ok bool) {
	t.Helper()
	path, explicit := os.LookupEnv(seedEnv)
	if !explicit || path == "" {
		path, explicit = defaultSeed, false
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		t.Logf("source article %s is absent; excerpts not checked against it (set %s)", path, seedEnv)
		return "", false
	}
	if err != nil {
		t.Fatalf("read source article: %v", err)
	}
	return string(b), true
}

// sectionBounds returns the byte range of each section §0–§10 in the article,
// following the scheme in the package comment.
func sectionBounds(t *testing.T, article string) map[string][2]int {
	t.Helper()
	starts := []int{0}
	for n := 1; n <= 9; n++ {
		i := strings.Index(article, "\n"+strconv.Itoa(n)+". ")
		if i < 0 {
			t.Fatalf("article has no section %d", n)
		}
		starts = append(starts, i+1)
	}
	i := strings.Index(article, "GPU算力租赁市场应该如何理解")
	if i < 0 {
		t.Fatal("article has no closing section")
	}
	starts = append(starts, i)
	if !slices.IsSorted(starts) {
		t.Fatalf("article sections out of order: %v", starts)
	}
	bounds := map[string][2]int{}
	for n, start := range starts {
		end := len(article)
		if n+1 < len(starts) {
			end = starts[n+1]
		}
		bounds["§"+strconv.Itoa(n)] = [2]int{start, end}
	}
	return bounds
}

func TestExcerptsAreVerbatim(t *testing.T) {
	article, ok := readSeed(t)
	if !ok {
		return
	}
	bounds := sectionBounds(t, article)
	for _, p := range Platforms() {
		for _, e := range p.Evidence {
			where := p.Slug + " evidence " + e.Key
			if !strings.Contains(article, e.Excerpt) {
				t.Errorf("%s: excerpt is not verbatim in the article: %q", where, e.Excerpt)
				continue
			}
			b := bounds[e.Section]
			inSection := false
			for from := 0; ; {
				i := strings.Index(article[from:], e.Excerpt)
				if i < 0 {
					break
				}
				at := from + i
				if at >= b[0] && at+len(e.Excerpt) <= b[1] {
					inSection = true
					break
				}
				from = at + 1
			}
			if !inSection {
				t.Errorf("%s: excerpt is not in %s: %q", where, e.Section, e.Excerpt)
			}
		}
	}
}
