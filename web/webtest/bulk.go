package webtest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections/history"
)

// BulkImport is what `crossrank ranking import FILE --as editor` stores for
// a new ranking of n entries, built at the speed of the store: a
// methodology proposal defining ranking slug (in review) and one entry
// proposal per entry depending on it, each with evidence items and a
// score per criterion, submitted. The events come from the domain's own
// Decide functions (history.Writer) and are appended in batches, so a test
// at thousands of proposals takes seconds. evidence gives each entry's
// evidence count (1–3) and author, by entry index (the ranking's is
// author(0)'s). It returns the methodology
// proposal's id and the entry proposals' ids, in the order opened.
func (e *DemoEnv) BulkImport(slug string, author func(i int) string, n int, m events.Methodology, evidence func(i int) int) (string, []string) {
	e.T.Helper()
	return e.BulkImportThen(slug, author, n, m, evidence, nil)
}

// BulkImportThen is BulkImport calling then after each entry proposal is
// submitted, with the writer (to append what others do to it) and the
// proposal's index and id.
func (e *DemoEnv) BulkImportThen(slug string, author func(i int) string, n int, m events.Methodology, evidence func(i int) int,
	then func(w *history.Writer, i int, id string) error) (string, []string) {
	e.T.Helper()
	w, err := history.NewWriter(e.Ctx, e.Store, "bulk import", rand.New(rand.NewPCG(uint64(n), 7)), time.Now().UTC(), 1)
	if err != nil {
		e.T.Fatal(err)
	}
	w.Folded = true
	a := domain.Actor{Name: author(0), Roles: []string{domain.RoleEditor}}
	do := w.As(a)
	must := func(err error) {
		e.T.Helper()
		if err != nil {
			e.T.Fatal(err)
		}
	}
	def := w.ID()
	must(do(domain.DecideOpenProposal(w.Ranking(slug), nil, w.Edition(slug), w.Proposal(def), a, domain.OpenProposal{
		ID: def, Ranking: slug, Methodology: true, NewRanking: true, Title: "Define " + slug,
		Proposed: &m, Rationale: events.Text{En: "Imported from a ranking file"}})))
	must(do(domain.DecideSubmit(w.Edition(slug), w.Proposal(def), a)))
	proposed := domain.ProposedRanking(slug, m)
	ids := make([]string, n)
	for i := range n {
		id, entry := w.ID(), fmt.Sprintf("model-%05d", i)
		ids[i] = id
		a := domain.Actor{Name: author(i), Roles: []string{domain.RoleEditor}}
		do := w.As(a)
		must(do(domain.DecideOpenProposal(proposed, w.Entry(slug, entry), w.Edition(slug), w.Proposal(id), a, domain.OpenProposal{
			ID: id, Ranking: slug, Entry: entry, Title: "Import " + entry, DependsOn: def,
			NewEntry: &domain.NewEntry{Name: events.Text{Zh: "模型 " + entry, En: "Model " + entry}, Category: m.Categories[0].Slug}})))
		var cited []string
		for k := range evidence(i) {
			must(do(domain.DecideAddEvidence(w.Proposal(id), a, domain.AddEvidence{Proposal: id,
				Claim: events.Text{En: fmt.Sprintf("Claim %d of %s", k+1, entry)}, SourceURL: fmt.Sprintf("https://example.org/%s/%d", entry, k+1),
				Excerpt: fmt.Sprintf("Excerpt %d of %s.", k+1, entry), ObservedOn: time.Now().UTC().Format(time.DateOnly)})))
			cited = append(cited, fmt.Sprintf("e%d", k+1))
		}
		for k, c := range m.Criteria {
			must(do(domain.DecideProposeScore(proposed, w.Edition(slug), w.Proposal(id), a, domain.ProposeScore{Proposal: id,
				Criterion: c.Slug, To: (i + k) % 11, Rationale: events.Text{En: "From the file"}, Evidence: cited})))
		}
		must(do(domain.DecideSubmit(w.Edition(slug), w.Proposal(id), a)))
		if then != nil {
			must(then(w, i, id))
		}
	}
	must(w.Flush())
	e.CaughtUp()
	return def, ids
}

// DecodeJSON decodes a JSON answer into out.
func DecodeJSON(t *testing.T, body string, out any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), out); err != nil {
		t.Fatalf("decode %.200s: %v", body, err)
	}
}

// BatchRanking is a ranking imported for the batch review tests: 2,000
// entry proposals with 1–3 evidence items, every 250th by eve (who also
// reviews).
const BatchRanking = "gpu-index"

// EvidenceOf is how many evidence items BatchRanking's entry i cites.
func EvidenceOf(i int) int { return 1 + i%3 }

// AuthorOf is who imported BatchRanking's entry i.
func AuthorOf(i int) string {
	if i%250 == 0 {
		return "eve"
	}
	return "editor"
}

// ImportedEvidence are the evidence ids of a bulk-imported proposal: e1…ek.
func ImportedEvidence(k int) []string {
	ids := make([]string, k)
	for j := range ids {
		ids[j] = fmt.Sprintf("e%d", j+1)
	}
	return ids
}
