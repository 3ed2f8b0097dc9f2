package desk

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/i18n"
)

// rankingWords names a ranking's categories, criteria, attributes and tags
// in the reader's language, for the publish and desk entry pages.
type rankingWords struct {
	r    *domain.Ranking
	lang string
}

func rankingWordsOf(r *domain.Ranking, lang string) rankingWords {
	return rankingWords{r: r, lang: lang}
}

// Title is the ranking's title.
func (w rankingWords) Title() string { return w.r.Title.In(w.lang) }

// Category names a category (its slug when unknown).
func (w rankingWords) Category(slug string) string {
	for _, c := range w.r.Categories {
		if c.Slug == slug {
			return c.Name.In(w.lang)
		}
	}
	return slug
}

// Criterion names a criterion (its slug when unknown).
func (w rankingWords) Criterion(slug string) string {
	for _, c := range w.r.Criteria {
		if c.Slug == slug {
			return c.Name.In(w.lang)
		}
	}
	return slug
}

// Target names a change target: "score:price" is the criterion's name,
// "attr:billing" the attribute's.
func (w rankingWords) Target(target string) string {
	kind, key, ok := strings.Cut(target, ":")
	if !ok {
		return target
	}
	if kind == "attr" {
		if a, ok := w.r.Attribute(key); ok {
			return a.Name.In(w.lang)
		}
		return key
	}
	return w.Criterion(key)
}

// Tags writes an attribute's tags with their labels, "–" for none.
func (w rankingWords) Tags(key string, tags []string) string {
	if len(tags) == 0 {
		return "–"
	}
	def, _ := w.r.Attribute(key)
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = t
		for _, v := range def.Values {
			if v.Value == t {
				if l := v.Label.In(w.lang); l != "" {
					out[i] = l
				}
			}
		}
	}
	sep := ", "
	if w.lang == i18n.Zh {
		sep = "、"
	}
	return strings.Join(out, sep)
}

// Value writes one side of a change: a score, or an attribute's tags.
func (w rankingWords) Value(target string, score *int, tags []string) string {
	kind, key, _ := strings.Cut(target, ":")
	if kind == "attr" {
		return w.Tags(key, tags)
	}
	if score == nil {
		return "–"
	}
	return strconv.Itoa(*score)
}

// totalText shows a weighted total (0–1000) on the 0.0–10.0 scale, rounded
// half up to one decimal with integers only (no floats near a hash).
func totalText(total int) string {
	t := (max(total, 0) + 5) / 10
	return strconv.Itoa(t/10) + "." + strconv.Itoa(t%10)
}

// proposalURL is a proposal's desk page.
func proposalURL(id string) string { return "/desk/proposals/" + url.PathEscape(id) }

// entryURL is an entry's desk page.
func entryURL(ranking, entry string) string {
	return "/desk/entries/" + url.PathEscape(ranking) + "/" + url.PathEscape(entry)
}

// EditionURL is an edition's public changelog.
func EditionURL(ranking string, n int) string {
	return "/r/" + url.PathEscape(ranking) + "/editions/" + strconv.Itoa(n)
}
