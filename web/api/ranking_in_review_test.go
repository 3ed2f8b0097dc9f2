package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest"
)

const inReviewRanking = "llm-board"

// threeApprovals is laptopMethodology with a quorum stricter than the
// default: a proposal judged by it needs three approvals, one judged by an
// undefined ranking's default two.
func threeApprovals() events.Methodology {
	m := webtest.LaptopMethodology()
	m.Quorum = events.QuorumPolicy{MinApprovals: 3, RequireEvidenceVerified: true}
	return m
}

// walkProposals reads every page of GET /api/v1/proposals?query and
// returns the proposals in list order.
func walkProposals(t *testing.T, c *webtest.Client, query url.Values) []api.Proposal {
	t.Helper()
	var all []api.Proposal
	for page := 0; ; page++ {
		var got api.ProposalList
		webtest.APIJSON(t, c, http.MethodGet, "/api/v1/proposals?"+query.Encode(), nil, http.StatusOK, &got)
		all = append(all, got.Proposals...)
		if got.Next == "" {
			return all
		}
		query.Set("after", got.Next)
		if page > 1000 {
			t.Fatal("the list never ends")
		}
	}
}

// TestRankingInReviewIsReviewable: while an imported ranking's methodology
// proposal is in review, each of its 2,500 entry proposals (500 under
// -race and -short) reads in the
// API and on the desk, judged by the proposed methodology (three
// approvals, not the default two), says it publishes with the ranking's
// definition, and takes votes that count; every page of the proposal list
// reads, and the list filters by the new ranking.
func TestRankingInReviewIsReviewable(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	n := 2500
	if raceEnabled || testing.Short() {
		n = 500 // still three pages of the list at 200; the full run reads 2,500
	}
	def, ids := e.BulkImport(inReviewRanking, func(int) string { return "editor" }, n, threeApprovals(), func(i int) int { return 1 + i%3 })
	rev := e.Client("reviewer1")

	// One entry proposal, in the API.
	id := ids[n/2]
	var p api.Proposal
	webtest.APIJSON(t, rev, http.MethodGet, "/api/v1/proposals/"+id, nil, http.StatusOK, &p)
	if p.Status != "in_review" || p.DependsOn != def || p.Quorum.RankingInReview != def || p.Quorum.Needed != 3 {
		t.Fatalf("proposal of a ranking in review: status %s depends_on %q ranking_in_review %q needed %d; want in_review, %s, %s, 3",
			p.Status, p.DependsOn, p.Quorum.RankingInReview, p.Quorum.Needed, def, def)
	}
	var m api.Proposal
	webtest.APIJSON(t, rev, http.MethodGet, "/api/v1/proposals/"+def, nil, http.StatusOK, &m)
	if m.Quorum.RankingInReview != "" || m.Quorum.Needed != 3 {
		t.Errorf("the defining proposal: ranking_in_review %q needed %d, want none and 3", m.Quorum.RankingInReview, m.Quorum.Needed)
	}

	// Its vote counts, against the proposed quorum.
	var evidence []string
	for _, ev := range p.Evidence {
		evidence = append(evidence, ev.EvidenceID)
	}
	webtest.APIJSON(t, rev, http.MethodPost, "/api/v1/proposals/"+id+"/votes",
		map[string]any{"verdict": "approve", "revision": p.Revision, "verified_evidence": evidence}, http.StatusCreated, nil)
	webtest.APIJSON(t, rev, http.MethodGet, "/api/v1/proposals/"+id, nil, http.StatusOK, &p)
	if strings.Join(p.Quorum.Approvers, ",") != "reviewer1" || p.Quorum.Needed != 2 {
		t.Errorf("after one approval: approvers %v needed %d, want [reviewer1] 2", p.Quorum.Approvers, p.Quorum.Needed)
	}

	// On the desk, in both languages.
	for _, lang := range []string{"en", "zh-CN"} {
		rev.Header.Set("Accept-Language", lang)
		doc := e.Page(rev, "/desk/proposals/"+id, http.StatusOK)
		part := webtest.TestText(doc, "quorum-ranking_in_review")
		if !strings.Contains(part, def) || !strings.Contains(part, "Laptops") && !strings.Contains(part, "笔记本") {
			t.Errorf("%s: the quorum does not say the ranking is in review: %q", lang, part)
		}
		if lang == "en" && !strings.Contains(part, "publishes together") || lang != "en" && !strings.Contains(part, "一同发布") {
			t.Errorf("%s: the quorum does not say it publishes with the definition: %q", lang, part)
		}
		if got := webtest.TestText(doc, "quorum-needed"); !strings.Contains(got, "2") {
			t.Errorf("%s: needed %q, want 2 more (of the proposed three)", lang, got)
		}
		e.Page(rev, "/desk/proposals/"+id+"/impact", http.StatusOK)
	}
	rev.Header.Del("Accept-Language")

	// Every page of the shared list, with a page size that puts proposals
	// of the ranking in review first on most pages.
	all := walkProposals(t, rev, url.Values{"limit": {"200"}})
	seen := map[string]bool{}
	for _, x := range all {
		seen[x.ID] = true
	}
	for _, want := range append([]string{def}, ids...) {
		if !seen[want] {
			t.Fatalf("proposal %s missing from the list of %d", want, len(all))
		}
	}
	// Filtered by the ranking in review.
	mine := walkProposals(t, rev, url.Values{"ranking": {inReviewRanking}, "limit": {"200"}})
	if len(mine) != n+1 {
		t.Errorf("?ranking=%s: %d proposals, want %d", inReviewRanking, len(mine), n+1)
	}
	for _, x := range mine {
		if x.Ranking != inReviewRanking || x.ID != def && x.Quorum.RankingInReview != def {
			t.Fatalf("?ranking=%s listed %s of %s (ranking_in_review %q)", inReviewRanking, x.ID, x.Ranking, x.Quorum.RankingInReview)
		}
	}
}
