package projections

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// searchFixture opens a read model whose ranking "r" holds entries with
// the names given (slug → Chinese and English name), indexed by the live
// projection's path: the rows a projection writes, then indexSearch.
func searchFixture(t *testing.T, names map[string][2]string) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for _, q := range []string{"PRAGMA foreign_keys=OFF", "BEGIN"} {
		if err := s.w.run(q); err != nil {
			t.Fatal(err)
		}
	}
	for _, slug := range slices.Sorted(func(yield func(string) bool) {
		for k := range names {
			if !yield(k) {
				return
			}
		}
	}) {
		n := names[slug]
		if err := s.w.exec(`INSERT INTO entries(ranking, slug, name_zh, name_en, category, website, desc_zh, desc_en, created_by_proposal, created_at)
			VALUES ('r', ?, ?, ?, 'k', '', '', '', 'p', '')`, slug, n[0], n[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.w.run("COMMIT"); err != nil {
		t.Fatal(err)
	}
	if err := s.indexMigrated(); err != nil {
		t.Fatal(err)
	}
	return s
}

// found returns the slugs of the entries q finds, best first.
func found(t *testing.T, s *Store, q string) []string {
	t.Helper()
	res, err := s.Search(context.Background(), SearchQuery{Text: q, Kind: SearchEntry, Ranking: "r"})
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	var out []string
	for _, h := range res.Hits {
		out = append(out, h.Entry)
	}
	return out
}

// sorted returns a sorted copy.
func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }

// TestSearchChineseBigrams: a Chinese query finds the documents holding it
// as a substring, whatever the characters around it: two characters, three
// across a bigram's boundary, one (at a run's start, middle or end), a run
// followed by a word; characters that are not next to each other in any
// name find nothing.
func TestSearchChineseBigrams(t *testing.T) {
	s := searchFixture(t, map[string][2]string{
		"zhixingyun": {"智星云", "Zhixingyun"},
		"xingyun":    {"星云计算", "Xingyun Compute"},
		"tianyi":     {"天翼云 GPU", "Tianyi Cloud"},
		"yunzhi":     {"云智", "Yunzhi"},
	})
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"星云", []string{"xingyun", "zhixingyun"}},
		{"智星云", []string{"zhixingyun"}},
		{"云计算", []string{"xingyun"}},
		{"星云计", []string{"xingyun"}},
		{"云", []string{"tianyi", "xingyun", "yunzhi", "zhixingyun"}},
		{"智", []string{"yunzhi", "zhixingyun"}},
		{"翼", []string{"tianyi"}},
		{"天翼云 gpu", []string{"tianyi"}},
		{"翼云 GPU", []string{"tianyi"}},
		{"云 gpu", []string{"tianyi"}},
		{"智云", nil},
		{"星云 gpu", nil},
		{"，。", nil},
	} {
		if got := sorted(found(t, s, c.q)); !slices.Equal(got, c.want) {
			t.Errorf("%q finds %v, want %v", c.q, got, c.want)
		}
	}
}

// TestSearchLatinWords: other text is found by words, case-insensitive,
// the last word as a prefix of one, the others whole; punctuation between
// words is a boundary, as in the text.
func TestSearchLatinWords(t *testing.T) {
	s := searchFixture(t, map[string][2]string{
		"nine":    {"九", "Cloud Nine"},
		"cloudy":  {"多云", "Cloudy Systems"},
		"v4":      {"四", "docs.vendor4.example"},
		"v40":     {"四十", "docs.vendor40.example"},
		"ueber":   {"优", "Über Compute"},
		"numbers": {"数", "H100 80GB"},
	})
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"cloud", []string{"cloudy", "nine"}},
		{"CLOUD NINE", []string{"nine"}},
		{"cloud nin", []string{"nine"}},
		{"loud", nil},
		{"nine cloud", nil},
		{"vendor4.example", []string{"v4"}},
		{"vendor4", []string{"v4", "v40"}},
		{"über", []string{"ueber"}},
		{"ÜBER compute", []string{"ueber"}},
		{"h100 80gb", []string{"numbers"}},
		{"v40", []string{"v40"}}, // the slug
	} {
		if got := sorted(found(t, s, c.q)); !slices.Equal(got, c.want) {
			t.Errorf("%q finds %v, want %v", c.q, got, c.want)
		}
	}
}

// TestSearchRankingOrder: hits come best first — more occurrences of the
// query before fewer, a short document before a long one holding it as
// often — whatever the order of their keys.
func TestSearchRankingOrder(t *testing.T) {
	s := searchFixture(t, map[string][2]string{
		"a-long":  {"星云数据中心与边缘计算集团", "Xingyun Data Centres and Edge Computing Group"},
		"b-short": {"星云", "Xingyun"},
		"c-twice": {"星云星云", "Xingyun Xingyun"},
	})
	for _, q := range []string{"星云", "xingyun"} {
		if got, want := found(t, s, q), []string{"c-twice", "b-short", "a-long"}; !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", q, got, want)
		}
	}
}

// TestSearchSnippet: a hit carries the text around what matched as it
// was written (the bigrams the index holds read back as the Chinese they
// came from, case and punctuation kept), the match marked.
func TestSearchSnippet(t *testing.T) {
	s := searchFixture(t, map[string][2]string{
		"zhixingyun": {"智星云提供GPU云容器、裸金属服务", "Zhixingyun offers GPU containers"},
	})
	for _, c := range []struct{ q, match, text string }{
		{"云容器", "云容器", "智星云提供GPU云容器、裸金属服务\nZhixingyun offers GPU containers\nzhixingyun"},
		{"容", "容器", ""}, // the bigram it starts
		{"裸金属服务", "裸金属服务", ""},
		{"zhixing", "Zhixingyun", ""},
		{"offers gpu", "offers", ""},
	} {
		res, err := s.Search(context.Background(), SearchQuery{Text: c.q, Kind: SearchEntry})
		if err != nil || len(res.Hits) != 1 {
			t.Fatalf("%q: %+v, %v", c.q, res, err)
		}
		var text strings.Builder
		var matched []string
		for _, p := range res.Hits[0].Snippet {
			text.WriteString(p.Text)
			if p.Match {
				matched = append(matched, p.Text)
			}
		}
		if len(matched) == 0 || matched[0] != c.match {
			t.Errorf("%q: matched %q, want %q first; snippet %+v", c.q, matched, c.match, res.Hits[0].Snippet)
		}
		if c.text != "" && strings.TrimSpace(text.String()) != c.text {
			t.Errorf("%q: snippet reads %q, want %q", c.q, text.String(), c.text)
		}
	}
}

// TestReadableSnippet reads snippets of segmented text back, including
// those FTS cut in the middle of a run.
func TestReadableSnippet(t *testing.T) {
	body := searchBody("智星云提供GPU云容器", "Zhixingyun")
	for _, c := range []struct{ in, want string }{
		{body, "智星云提供GPU云容器\nZhixingyun\n"},
		{strings.Replace(body, "星云", "\x02星云\x03", 1), "智[星云]提供GPU云容器\nZhixingyun\n"},
		{"…星云\x1f云提\x1f", "…星云提"},
		{"星云\x1f云提…", "星云提…"},
		{"\x02云\x03", "[云]"},
	} {
		var b strings.Builder
		for _, p := range readable(c.in) {
			if p.Match {
				b.WriteString("[" + p.Text + "]")
			} else {
				b.WriteString(p.Text)
			}
		}
		if b.String() != c.want {
			t.Errorf("readable(%q) = %q, want %q", c.in, b.String(), c.want)
		}
	}
}

// TestSearchQueryTerms: a query is cut to MaxSearchTerms terms, and still
// finds what holds them.
func TestSearchQueryTerms(t *testing.T) {
	long := strings.Repeat("星云", 20)
	if n := len(queryTerms(long)); n != MaxSearchTerms {
		t.Errorf("%d terms, want %d", n, MaxSearchTerms)
	}
	s := searchFixture(t, map[string][2]string{"x": {long, "X"}})
	if got := found(t, s, long+"不在"); !slices.Equal(got, []string{"x"}) {
		t.Errorf("a long query finds %v", got)
	}
}
