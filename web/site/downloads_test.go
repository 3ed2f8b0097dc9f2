package site_test

import (
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// TestDownloadsStayWithTheirEdition publishes a second edition that
// changes a score and its evidence: the first edition's CSV keeps its
// bytes, and the second names the new evidence for that score only.
func TestDownloadsStayWithTheirEdition(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	_, first := e.Get("/r/gpu-cloud/editions/1/ranking.csv")
	id := e.CrossValidate("ppio", "gpu-coverage", 4, domain.AddEvidence{Claim: events.Text{En: "PPIO lists more GPUs"},
		SourceURL: "https://example.org/ppio", Excerpt: "RTX 4090", ObservedOn: "2026-03-01"})
	n := e.Publish(id)

	if _, again := e.Get("/r/gpu-cloud/editions/1/ranking.csv"); again != first {
		t.Error("edition 1's CSV changed when a later edition was published")
	}
	cells := func(body string) map[string][]string {
		rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]string{}
		for _, r := range rows[1:] {
			out[r[1]+"/"+r[5]] = []string{r[7], r[8]}
		}
		return out
	}
	before, after := cells(first), cells(func() string { _, b := e.Get("/r/gpu-cloud/editions/" + strconv.Itoa(n) + "/ranking.csv"); return b }())
	if got := after["ppio/gpu-coverage"]; got[0] != "4" || got[1] != id+"/e1" {
		t.Errorf("edition %d, ppio/gpu-coverage = %q, want score 4 with %s/e1", n, got, id)
	}
	if before["ppio/gpu-coverage"][1] == after["ppio/gpu-coverage"][1] {
		t.Error("edition 1 shows the new evidence")
	}
	for k, v := range before {
		if k != "ppio/gpu-coverage" && after[k][1] != v[1] {
			t.Errorf("%s: evidence %q in edition 1, %q after, though unchanged", k, v[1], after[k][1])
		}
	}
}
