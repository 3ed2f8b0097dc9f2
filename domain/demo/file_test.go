package demo

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/events"
)

// The demo ranking file's content, checked against the article it is drawn
// from. The domain's own rules (weights, slugs, text limits, known
// criteria and tags) are checked by importing it (see seed_test and
// domain/rankfile); these are the demo's editorial promises.

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

// declaredTags maps each attribute key to its set of declared tags.
func declaredTags(m events.Methodology) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, a := range m.Attributes {
		out[a.Key] = map[string]bool{}
		for _, v := range a.Values {
			out[a.Key][v.Value] = true
		}
	}
	return out
}

// bilingual reports whether s is "中文 / English", the demo's way of
// writing a claim or a rationale in both languages in one field.
// bilingual reports whether a claim or a rationale gives both languages,
// each in its own field (issue 43): Chinese in zh, none in en, and neither
// the two side by side as the demo once wrote them.
func bilingual(t domain.TextField) bool {
	han := func(s string) bool {
		return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
	}
	return strings.TrimSpace(t.Zh) != "" && strings.TrimSpace(t.En) != "" && han(t.Zh) && !han(t.En) &&
		!strings.Contains(t.Zh, " / ")
}

func TestMethodology(t *testing.T) {
	f := File()
	m := f.Methodology
	if f.Slug != RankingSlug || f.Format != rankfile.Format {
		t.Errorf("file = %q %q, want %q %q", f.Format, f.Slug, rankfile.Format, RankingSlug)
	}
	checkSlug(t, "ranking", f.Slug)
	checkText(t, "title", m.Title)
	checkText(t, "description", m.Description)
	if want := (events.QuorumPolicy{MinApprovals: 2, RequireEvidenceVerified: true}); m.Quorum != want {
		t.Errorf("quorum = %+v, want %+v", m.Quorum, want)
	}
	if !m.Illustrative {
		t.Error("the demo ranking is not marked illustrative: its methodology page would not say the scores are examples")
	}
	var cats, crits, scens, filters []string
	for _, c := range m.Categories {
		cats = append(cats, c.Slug)
	}
	for _, c := range m.Criteria {
		crits = append(crits, c.Slug)
	}
	for _, s := range m.Scenarios {
		scens = append(scens, s.Slug)
	}
	for _, x := range m.Filters {
		filters = append(filters, x.Key)
	}
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"categories", cats, []string{"specialist", "public-cloud", "ai-cloud", "lightweight"}},
		{"criteria", crits, []string{CritDelivery, CritGPUs, CritCluster, CritIntegration, CritElasticity, CritGraphics, CritOnboarding, CritDataAccess}},
		{"scenarios", scens, []string{"training", "inference", "scientific", "graphics"}},
		{"filters", filters, []string{"workload", "scale", "system-access", "data-location", "interruptible", "duration"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	for _, a := range m.Attributes {
		if len(a.Values) == 0 {
			t.Errorf("attribute %s declares no tags", a.Key)
		}
	}
}

// meets reports whether an entry's attributes satisfy a requirement.
func meets(e rankfile.Entry, r events.Requirement) bool {
	i := slices.IndexFunc(e.Attributes, func(a rankfile.Attribute) bool { return a.Key == r.Attribute })
	return i >= 0 && slices.ContainsFunc(e.Attributes[i].Tags, func(tag string) bool { return slices.Contains(r.AnyOf, tag) })
}

// Every option of a needs-filter that asks for something tells the
// platforms apart.
func TestFiltersSeparatePlatforms(t *testing.T) {
	f := File()
	for _, x := range f.Methodology.Filters {
		for _, o := range x.Options {
			if len(o.Requires) == 0 {
				continue
			}
			kept := 0
			for _, e := range f.Entries {
				if !slices.ContainsFunc(o.Requires, func(r events.Requirement) bool { return !meets(e, r) }) {
					kept++
				}
			}
			if kept == 0 || kept == len(f.Entries) {
				t.Errorf("filter %s option %s keeps %d of %d platforms, want some but not all", x.Key, o.Value, kept, len(f.Entries))
			}
		}
	}
}

func TestPlatforms(t *testing.T) {
	f := File()
	tags := declaredTags(f.Methodology)
	var slugs []string
	used := map[string]bool{}
	for i, p := range f.Entries {
		slugs = append(slugs, p.Slug)
		checkText(t, p.Slug+" name", p.Name)
		checkText(t, p.Slug+" description", p.Description)
		used[p.Category] = true
		own := "§" + strconv.Itoa(i+1) // the article's order
		if !slices.ContainsFunc(p.Evidence, func(e rankfile.Evidence) bool { return e.Section == own }) {
			t.Errorf("%s cites nothing from its own section %s", p.Slug, own)
		}
		for _, e := range p.Evidence {
			where := p.Slug + " evidence " + e.Key
			if !bilingual(e.Claim) {
				t.Errorf("%s: claim is not {zh, en}: %+v", where, e.Claim)
			}
			if e.SourceName != SourceName || e.SourceURL != SourceURL {
				t.Errorf("%s: source %q %q, want the article", where, e.SourceName, e.SourceURL)
			}
			if n := utf8.RuneCountInString(e.Excerpt); n > maxExcerptRunes {
				t.Errorf("%s: excerpt is %d runes, want ≤ %d", where, n, maxExcerptRunes)
			}
			if !sectionRE.MatchString(e.Section) {
				t.Errorf("%s: section %q, want §0–§10", where, e.Section)
			}
		}
		for _, a := range p.Attributes {
			for _, v := range a.Tags {
				if !tags[a.Key][v] {
					t.Errorf("%s: undeclared tag %s/%s", p.Slug, a.Key, v)
				}
			}
			if len(a.Evidence) == 0 {
				t.Errorf("%s: attribute %s has no evidence", p.Slug, a.Key)
			}
		}
		if len(p.Scores) == 0 {
			t.Errorf("%s has no scores", p.Slug)
		}
		for _, s := range p.Scores {
			if !bilingual(s.Rationale) {
				t.Errorf("%s score %s: rationale is not {zh, en}", p.Slug, s.Criterion)
			}
		}
	}
	want := []string{"zhixingyun", "aliyun", "tencent-cloud", "huawei-cloud", "volcengine", "qingcloud", "ppio", "matpool", "qingjiao"}
	if !slices.Equal(slugs, want) {
		t.Errorf("platforms = %v, want %v", slugs, want)
	}
	if len(used) != len(f.Methodology.Categories) {
		t.Errorf("platforms use %d of %d categories", len(used), len(f.Methodology.Categories))
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
	for _, p := range File().Entries {
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
