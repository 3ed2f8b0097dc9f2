package site

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// Compare: two to four entries of the newest edition side by side — each
// criterion's score and the evidence behind it, and the weighted total
// under the overall weights and every scenario, with the difference to the
// first entry. Entries are chosen in the query (a, b, c, d), so a plain GET
// form picks them without script and every comparison has an address.

// compareParams are the query parameters that name entries, in order.
var compareParams = []string{"a", "b", "c", "d"}

// compareMax is how many entries one comparison holds.
const compareMax = 4

// compareListMax is the most entries the picker lists as choices: past
// it, each picker is a text field that takes a name, a rank or a slug, and
// suggests the first compareListMax by rank. Three lists of every entry
// of a 10,000-entry edition were 2.1 MB of HTML (issue 42: nothing sent
// larger than about 1 MB).
const compareListMax = 100

// errCompareTooMany refuses a fifth entry.
var errCompareTooMany = fmt.Errorf("%w: %w", httpx.ErrMalformed,
	&domain.FieldError{Field: "e", Code: "field.too_many", Args: domain.Args{"limit": compareMax}})

// compareQueryOf reads the chosen entries: at most one per parameter, no
// entry twice, nothing past d.
func compareQueryOf(q url.Values) ([]string, error) {
	for k := range q {
		if len(k) == 1 && k[0] > 'd' && k[0] <= 'z' {
			return nil, errCompareTooMany // e, f…: a fifth entry
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, k := range compareParams {
		vs := q[k]
		if len(vs) > 1 {
			return nil, errCompareTooMany
		}
		if len(vs) == 0 || vs[0] == "" {
			continue
		}
		if seen[vs[0]] {
			return nil, fmt.Errorf("%w: %w", httpx.ErrMalformed,
				&domain.FieldError{Field: k, Code: "field.repeats", Args: domain.Args{"value": vs[0]}})
		}
		seen[vs[0]] = true
		out = append(out, vs[0])
	}
	return out, nil
}

// compareColumn is one compared entry.
type compareColumn struct {
	Slug string
	Name string
	Href string
	Rank int
}

// compareCell is one entry's score on a criterion and its evidence.
type compareCell struct {
	Score    string // "—" when unscored
	Diff     string // to the first entry; "" in the first column
	Evidence []evidenceLink
}

// compareCriterion is one criterion across the entries.
type compareCriterion struct {
	Name   string
	Weight int
	Cells  []compareCell
}

// compareTotal is one entry's weighted total under one set of weights.
type compareTotal struct {
	Total string
	Rank  int
	Diff  string // to the first entry; "" in the first column
}

// compareScenario is the totals under one set of weights.
type compareScenario struct {
	Slug   string // "" for the overall weights
	Name   string
	Totals []compareTotal
}

// compareView is the model of the compare page.
type compareView struct {
	ui.Page
	L            linkSet
	Live         liveUpdates
	Slug         string
	RankingTitle string
	RankingHref  string
	Action       string
	Edition      int
	Options      []choice  // the picker's choices: every entry, or the first compareListMax when Typed
	Typed        bool      // the pickers are text fields (more entries than compareListMax)
	Chosen       [4]string // the picker's current values
	Columns      []compareColumn
	Criteria     []compareCriterion
	Scenarios    []compareScenario
	Bars         compareBars // the criteria's scores as bars
}

// signedTotal is a difference of totals as "+0.5", "−1.2" or "±0".
func signedTotal(d int) string {
	switch {
	case d > 0:
		return "+" + totalText(d)
	case d < 0:
		return "−" + totalText(-d)
	}
	return "±0"
}

func buildCompare(ctx context.Context, read *projections.Store, p ui.Page, l linkSet, slug string, chosen []string) (compareView, error) {
	def, latest, err := read.Definition(ctx, slug)
	if err != nil {
		return compareView{}, err
	}
	v := compareView{Page: p, L: l, Slug: slug, RankingTitle: def.Title.In(p.Lang), RankingHref: l.Ranking(slug, "", ""),
		Action: "/r/" + slug + "/compare", Edition: latest}
	v.Page.Title = p.T("compare.title") + " · " + v.RankingTitle
	copy(v.Chosen[:], chosen)
	if latest == 0 {
		if len(chosen) > 0 {
			return v, domain.ErrNotFound
		}
		return v, nil
	}
	snap, err := read.PublishedSnapshot(ctx, slug, latest)
	if err != nil {
		return v, err
	}
	ranks := map[string]map[string]int{"": {}} // scenario → entry → rank
	v.Typed = len(snap.Entries) > compareListMax
	for i, e := range snap.Entries {
		if !v.Typed || i < compareListMax {
			v.Options = append(v.Options, choice{Value: e.Slug, Label: strconv.Itoa(e.Rank) + ". " + e.Name.In(p.Lang)})
		}
		ranks[""][e.Slug] = e.Rank
	}
	if v.Typed {
		if chosen, err = resolveCompare(snap.Entries, chosen); err != nil {
			return v, err
		}
		copy(v.Chosen[:], chosen)
	}
	for _, sc := range snap.Scenarios {
		ranks[sc.Slug] = map[string]int{}
		for i, e := range sc.Order {
			ranks[sc.Slug][e] = i + 1
		}
	}
	scores := make([]map[string]int, 0, len(chosen))
	evidence := make([]map[string][]projections.EvidenceView, 0, len(chosen))
	for _, slugE := range chosen {
		if _, ok := ranks[""][slugE]; !ok {
			return v, domain.ErrNotFound // not in the newest edition
		}
		e, err := read.Entry(ctx, slug, slugE)
		if err != nil {
			return v, err
		}
		v.Columns = append(v.Columns, compareColumn{Slug: slugE, Name: e.Name.In(p.Lang), Href: l.Entry(slug, slugE, ""), Rank: e.Rank})
		sc, ev := map[string]int{}, map[string][]projections.EvidenceView{}
		for _, s := range e.Scores {
			sc[s.Criterion], ev[s.Criterion] = s.Score, s.Evidence
		}
		scores, evidence = append(scores, sc), append(evidence, ev)
	}
	if len(chosen) < 2 {
		v.Columns = nil // the picker only
		return v, nil
	}
	for _, c := range def.Criteria {
		row := compareCriterion{Name: c.Name.In(p.Lang), Weight: c.Weight}
		for i := range chosen {
			cell := compareCell{Score: "—"}
			if s, ok := scores[i][c.Slug]; ok {
				cell.Score = strconv.Itoa(s)
				if a, ok := scores[0][c.Slug]; ok && i > 0 {
					cell.Diff = fmt.Sprintf("%+d", s-a)
				}
			}
			for _, e := range evidence[i][c.Slug] {
				cell.Evidence = append(cell.Evidence, evidenceLink{Href: l.Entry(slug, chosen[i], evidenceAnchor(e.Proposal, e.ID)), Claim: e.Claim.In(p.Lang)})
			}
			row.Cells = append(row.Cells, cell)
		}
		v.Criteria = append(v.Criteria, row)
	}
	weights := []compareScenario{{Name: p.T("compare.overall")}}
	sets := []map[string]int{def.Weights()}
	for _, sc := range def.Scenarios {
		weights = append(weights, compareScenario{Slug: sc.Slug, Name: sc.Name.In(p.Lang)})
		sets = append(sets, sc.Weights)
	}
	for k, sc := range weights {
		first := domain.Total(scores[0], sets[k])
		for i := range chosen {
			t := domain.Total(scores[i], sets[k])
			ct := compareTotal{Total: totalText(t), Rank: ranks[sc.Slug][chosen[i]]}
			if i > 0 {
				ct.Diff = signedTotal(t - first)
			}
			sc.Totals = append(sc.Totals, ct)
		}
		v.Scenarios = append(v.Scenarios, sc)
	}
	v.Bars = compareBarsOf(p, v)
	return v, nil
}

// resolveCompare reads what was typed into the text pickers as entries:
// a slug, else a rank ("42" or "#42"), else a name in either language
// (case aside; the best ranked of equal names). Anything else is refused,
// naming the field.
func resolveCompare(entries []domain.SnapshotEntry, typed []string) ([]string, error) {
	out := make([]string, len(typed))
	for i, t := range typed {
		slug, ok := findEntry(entries, t)
		if !ok {
			return nil, fmt.Errorf("%w: %w", httpx.ErrMalformed,
				&domain.FieldError{Field: compareParams[i], Code: "field.unknown_entry", Args: domain.Args{"value": t}})
		}
		out[i] = slug
	}
	return out, nil
}

// findEntry is the entry t names (see resolveCompare); entries are in
// rank order, so the first of equal names is the best ranked.
func findEntry(entries []domain.SnapshotEntry, t string) (string, bool) {
	for _, e := range entries {
		if e.Slug == t {
			return e.Slug, true
		}
	}
	t = strings.TrimSpace(t)
	rank, rankErr := strconv.Atoi(strings.TrimPrefix(t, "#"))
	for _, e := range entries {
		if rankErr == nil && e.Rank == rank || strings.EqualFold(e.Name.Zh, t) || strings.EqualFold(e.Name.En, t) {
			return e.Slug, true
		}
	}
	return "", false
}

// compare serves GET /r/{slug}/compare?a=&b=[&c=&d=].
func (s *Site) compare(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug := r.PathValue("slug")
	chosen, err := compareQueryOf(r.URL.Query())
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	q := url.Values{}
	for i, e := range chosen {
		q.Set(compareParams[i], e)
	}
	s.servePage(w, r, slug, q, false, func(p ui.Page, live liveUpdates) (templ.Component, error) {
		v, err := buildCompare(ctx, s.read, p, liveLinks, slug, chosen)
		v.Live = live
		return comparePage(v), err
	})
}

// Compare is the compare page of entries (the picker when fewer than two).
func (l linkSet) Compare(slug string, entries ...string) string {
	q := url.Values{}
	for i, e := range entries {
		if i < compareMax {
			q.Set(compareParams[i], e)
		}
	}
	return withQuery("/r/"+slug+"/compare", q)
}
