package desk

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
)

// deskLabels names a ranking's criteria, attributes, tags, categories and
// scenarios in either language. A zero value (unknown ranking) names every
// slug by itself.
type deskLabels struct {
	r *domain.Ranking
}

// criterion names a criterion.
func (l deskLabels) criterion(lang, slug string) string {
	if l.r != nil {
		for _, c := range l.r.Criteria {
			if c.Slug == slug {
				return deskOrSlug(c.Name.In(lang), slug)
			}
		}
	}
	return slug
}

// attribute names an attribute.
func (l deskLabels) attribute(lang, key string) string {
	if def, ok := l.def(key); ok {
		return deskOrSlug(def.Name.In(lang), key)
	}
	return key
}

// tag names one value of an attribute.
func (l deskLabels) tag(lang, key, value string) string {
	if def, ok := l.def(key); ok {
		for _, v := range def.Values {
			if v.Value == value {
				return deskOrSlug(v.Label.In(lang), value)
			}
		}
	}
	return value
}

// tags names a list of values, joined; "—" for none.
func (l deskLabels) tags(lang, key string, values []string) string {
	if len(values) == 0 {
		return "—"
	}
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = l.tag(lang, key, v)
	}
	return strings.Join(out, deskListSep(lang))
}

// target names a change target: "score:price" → "Price", "attr:billing" → "Billing".
func (l deskLabels) target(lang, target string) string {
	kind, key, _ := strings.Cut(target, ":")
	if kind == "attr" {
		return l.attribute(lang, key)
	}
	return l.criterion(lang, key)
}

// title is the ranking's title.
func (l deskLabels) title(lang string) string {
	if l.r == nil {
		return ""
	}
	return deskOrSlug(l.r.Title.In(lang), l.r.Slug)
}

func (l deskLabels) def(key string) (events.AttributeDef, bool) {
	if l.r == nil {
		return events.AttributeDef{}, false
	}
	return l.r.Attribute(key)
}

func deskOrSlug(name, slug string) string {
	if name == "" {
		return slug
	}
	return name
}

// deskListSep separates the items of a list in running text.
func deskListSep(lang string) string {
	if lang == i18n.Zh {
		return "、"
	}
	return ", "
}

// deskLabelCache loads each ranking's labels once per request.
type deskLabelCache struct {
	read  *projections.Store
	m     map[string]deskLabels
	entry func(ctx context.Context, lang, ranking, entry, fallback string) string // nil: the fallback
}

// entryName names an entry in lang, or returns fallback.
func (c *deskLabelCache) entryName(ctx context.Context, lang, ranking, entry, fallback string) string {
	if c.entry == nil {
		return fallback
	}
	return c.entry(ctx, lang, ranking, entry, fallback)
}

func newDeskLabelCache(read *projections.Store) *deskLabelCache {
	return &deskLabelCache{read: read, m: map[string]deskLabels{}}
}

// get returns the labels of a ranking; an unknown ranking names slugs by themselves.
func (c *deskLabelCache) get(ctx context.Context, ranking string) deskLabels {
	if l, ok := c.m[ranking]; ok {
		return l
	}
	r, _, err := c.read.Definition(ctx, ranking)
	l := deskLabels{}
	if err == nil {
		l.r = r
	}
	c.m[ranking] = l
	return l
}

// deskTime parses a time the read models store (RFC 3339); zero when it does not parse.
func deskTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// deskTotal shows a weighted total (0–1000) as the 0.0–10.0 readers see.
func deskTotal(total int) string {
	tenths := (total + 5) / 10 // round half up; totals are never negative
	return strconv.Itoa(tenths/10) + "." + strconv.Itoa(tenths%10)
}
