package desk

import (
	"cmp"
	"context"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
)

// rankingLabels names a ranking's criteria, attributes, tags, categories and
// scenarios in either language. A zero value (unknown ranking) names every
// slug by itself.
type rankingLabels struct {
	r *domain.Ranking
}

// criterion names a criterion.
func (l rankingLabels) criterion(lang, slug string) string {
	if l.r != nil {
		for _, c := range l.r.Criteria {
			if c.Slug == slug {
				return cmp.Or(c.Name.In(lang), slug)
			}
		}
	}
	return slug
}

// attribute names an attribute.
func (l rankingLabels) attribute(lang, key string) string {
	if def, ok := l.def(key); ok {
		return cmp.Or(def.Name.In(lang), key)
	}
	return key
}

// tag names one value of an attribute.
func (l rankingLabels) tag(lang, key, value string) string {
	if def, ok := l.def(key); ok {
		for _, v := range def.Values {
			if v.Value == value {
				return cmp.Or(v.Label.In(lang), value)
			}
		}
	}
	return value
}

// tags names a list of values, joined; "—" for none.
func (l rankingLabels) tags(lang, key string, values []string) string {
	if len(values) == 0 {
		return "—"
	}
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = l.tag(lang, key, v)
	}
	return strings.Join(out, listSep(lang))
}

// target names a change target: "score:price" → "Price", "attr:billing" → "Billing".
func (l rankingLabels) target(lang, target string) string {
	kind, key, _ := strings.Cut(target, ":")
	if kind == "attr" {
		return l.attribute(lang, key)
	}
	return l.criterion(lang, key)
}

// targets names the targets, in the language's list.
func (l rankingLabels) targets(lang string, targets []string) string {
	names := make([]string, len(targets))
	for i, t := range targets {
		names[i] = l.target(lang, t)
	}
	return joinNames(lang, names)
}

// title is the ranking's title.
func (l rankingLabels) title(lang string) string {
	if l.r == nil {
		return ""
	}
	return cmp.Or(l.r.Title.In(lang), l.r.Slug)
}

func (l rankingLabels) def(key string) (events.AttributeDef, bool) {
	if l.r == nil {
		return events.AttributeDef{}, false
	}
	return l.r.Attribute(key)
}

// listSep separates the items of a list in running text.
func listSep(lang string) string {
	if lang == i18n.Zh {
		return "、"
	}
	return ", "
}

// labelCache loads each ranking's labels once per request.
type labelCache struct {
	read  *projections.Store
	m     map[string]rankingLabels
	entry func(ctx context.Context, lang, ranking, entry, fallback string) string // nil: the fallback
}

// entryName names an entry in lang, or returns fallback.
func (c *labelCache) entryName(ctx context.Context, lang, ranking, entry, fallback string) string {
	if c.entry == nil {
		return fallback
	}
	return c.entry(ctx, lang, ranking, entry, fallback)
}

func newLabelCache(read *projections.Store) *labelCache {
	return &labelCache{read: read, m: map[string]rankingLabels{}}
}

// get returns the labels of a ranking; an unknown ranking names slugs by themselves.
func (c *labelCache) get(ctx context.Context, ranking string) rankingLabels {
	if l, ok := c.m[ranking]; ok {
		return l
	}
	r, _, err := c.read.Definition(ctx, ranking)
	l := rankingLabels{}
	if err == nil {
		l.r = r
	}
	c.m[ranking] = l
	return l
}

// parseTime parses a time the read models store (RFC 3339); zero when it does not parse.
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
