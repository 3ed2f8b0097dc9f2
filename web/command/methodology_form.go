package command

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
)

// The methodology form names its fields by the paths the domain names its
// errors with ("criteria[2].weight", "title.zh"), so an error lands next
// to its field. Lists are repeated row groups; a row left blank is dropped
// and the rows after it renumbered in the form's values too, so the error
// paths and the re-rendered rows keep agreeing. Nested lists are lines of
// a textarea, fields split by "|":
//
//	attribute values:  value | 中文标签 | English label
//	scenario weights:  criterion=weight, one a line
//	filter options:    value | 中文 | English [| attribute=v1 v2 | 中文原因 | English reason]...

// methodologyLists are the row groups and the fields of one row.
var methodologyLists = map[string][]string{
	"categories": {"slug", "name.zh", "name.en", "description.zh", "description.en"},
	"criteria":   {"slug", "name.zh", "name.en", "description.zh", "description.en", "weight"},
	"attributes": {"key", "name.zh", "name.en", "values"},
	"scenarios":  {"slug", "name.zh", "name.en", "description.zh", "description.en", "weights"},
	"filters":    {"key", "question.zh", "question.en", "options"},
}

// MethodologyForm reads the methodology form.
func MethodologyForm(f *httpx.Form) events.Methodology {
	m := events.Methodology{
		Title:       text(f, "title"),
		Description: text(f, "description"),
		License:     strings.TrimSpace(f.Str("license")),
		Quorum: events.QuorumPolicy{MinApprovals: f.Int("quorum.min_approvals"),
			RequireEvidenceVerified: f.Bool("quorum.require_evidence_verified")},
		Illustrative: f.Bool("illustrative"),
	}
	for _, list := range []string{"categories", "criteria", "attributes", "scenarios", "filters"} {
		n := compactRows(f.Values(), list, methodologyLists[list])
		for i := range n {
			at := fmt.Sprintf("%s[%d].", list, i)
			switch list {
			case "categories":
				m.Categories = append(m.Categories, events.Category{Slug: f.Str(at + "slug"),
					Name: text(f, at+"name"), Description: text(f, at+"description")})
			case "criteria":
				m.Criteria = append(m.Criteria, events.Criterion{Slug: f.Str(at + "slug"),
					Name: text(f, at+"name"), Description: text(f, at+"description"), Weight: f.Int(at + "weight")})
			case "attributes":
				a := events.AttributeDef{Key: f.Str(at + "key"), Name: text(f, at+"name")}
				for _, l := range f.Lines(at + "values") {
					p := fields(l, 3)
					a.Values = append(a.Values, events.AttributeValue{Value: p[0], Label: events.Text{Zh: p[1], En: p[2]}})
				}
				m.Attributes = append(m.Attributes, a)
			case "scenarios":
				m.Scenarios = append(m.Scenarios, events.Scenario{Slug: f.Str(at + "slug"), Name: text(f, at+"name"),
					Description: text(f, at+"description"), Weights: weights(f, at+"weights")})
			case "filters":
				fl := events.Filter{Key: f.Str(at + "key"), Question: text(f, at+"question"), Options: []events.FilterOption{}}
				for _, l := range f.Lines(at + "options") {
					fl.Options = append(fl.Options, option(l))
				}
				m.Filters = append(m.Filters, fl)
			}
		}
	}
	return m
}

// compactRows drops the blank rows of list from values, renumbers the rest
// from 0, and returns how many remain.
func compactRows(values url.Values, list string, names []string) int {
	n := 0
	for i := range domain.MaxListItems + 1 {
		blank, present := true, false
		for _, name := range names {
			k := fmt.Sprintf("%s[%d].%s", list, i, name)
			if _, ok := values[k]; ok {
				present = true
			}
			if strings.TrimSpace(values.Get(k)) != "" {
				blank = false
			}
		}
		if !present {
			continue
		}
		for _, name := range names {
			from, to := fmt.Sprintf("%s[%d].%s", list, i, name), fmt.Sprintf("%s[%d].%s", list, n, name)
			v := values[from]
			delete(values, from)
			if !blank {
				values[to] = v
			}
		}
		if !blank {
			n++
		}
	}
	return n
}

func text(f *httpx.Form, name string) events.Text {
	return events.Text{Zh: strings.TrimSpace(f.Str(name + ".zh")), En: strings.TrimSpace(f.Str(name + ".en"))}
}

// fields splits a line at "|" into at least n trimmed fields.
func fields(line string, n int) []string {
	p := strings.Split(line, "|")
	for i := range p {
		p[i] = strings.TrimSpace(p[i])
	}
	for len(p) < n {
		p = append(p, "")
	}
	return p
}

// weights reads "criterion=weight" lines (or comma-separated pairs); a
// weight that is not a whole number is a field error.
func weights(f *httpx.Form, name string) map[string]int {
	out := map[string]int{}
	for _, l := range f.Lines(name) {
		for _, pair := range strings.Split(l, ",") {
			if pair = strings.TrimSpace(pair); pair == "" {
				continue
			}
			k, v, _ := strings.Cut(pair, "=")
			w, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				f.FieldErr(name, "field.whole_number")
				continue
			}
			out[strings.TrimSpace(k)] = w
		}
	}
	return out
}

// option reads "value | 中文 | English" and then requirements, three
// fields each: "attribute=v1 v2 | 中文原因 | English reason".
func option(line string) events.FilterOption {
	p := fields(line, 3)
	o := events.FilterOption{Value: p[0], Label: events.Text{Zh: p[1], En: p[2]}}
	for i := 3; i < len(p); i += 3 {
		q := fields(strings.Join(p[i:min(i+3, len(p))], "|"), 3)
		attr, vals, _ := strings.Cut(q[0], "=")
		o.Requires = append(o.Requires, events.Requirement{Attribute: strings.TrimSpace(attr),
			AnyOf: strings.Fields(vals), Reason: events.Text{Zh: q[1], En: q[2]}})
	}
	return o
}
