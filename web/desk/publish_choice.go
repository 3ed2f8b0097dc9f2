package desk

import (
	"net/url"
	"strconv"

	"github.com/crossrank/crossrank/web/paths"
)

// Choosing proposals on the publish page when they fill many pages. The
// page shows 50 candidates at a time; the choice is either every
// cross-validated proposal the publisher may publish but some (?all=1 and
// x=<id> for each one left out) or the ones ticked (?p=<id>…). The select
// form (a GET, no script needed) carries the choice on the other pages in
// hidden fields, the ticks of the page shown, and — for "all" — the ids of
// that page's boxes ("shown"), so that an unticked box there leaves its
// proposal out. Its page buttons submit the ticks before they move, so
// ticks on several pages add up.

// choiceOf reads the publish page's choice from its URL.
func choiceOf(q url.Values) PublishChoice {
	c := PublishChoice{Ranking: q.Get("ranking"), All: q.Get("all") == "1"}
	switch q.Get("select") {
	case "all": // "choose all N": nothing left out
		c.All = true
		return c
	case "none": // "clear": nothing chosen, tick what to publish
		c.All = false
		return c
	}
	if !c.All {
		c.Proposals = q["p"]
		return c
	}
	ticked := setOf(q["p"])
	c.Except = q["x"]
	for _, id := range q["shown"] {
		if !ticked[id] {
			c.Except = append(c.Except, id)
		}
	}
	return c
}

// picks returns whether the choice takes a proposal of a ranking;
// chosenHere reports whether the choice is this ranking's (every other
// ranking previews all).
func (c PublishChoice) picks(chosenHere bool) func(id string) bool {
	switch {
	case !chosenHere:
		return func(string) bool { return true }
	case c.All:
		out := setOf(c.Except)
		return func(id string) bool { return !out[id] }
	}
	in := setOf(c.Proposals)
	return func(id string) bool { return in[id] }
}

// carried is the choice on the pages other than shown's, as the select
// form carries it: the chosen proposals (explicit) or those left out of
// all.
func carried(all, shown []publishCandidate, explicit bool) []string {
	here := make(map[string]bool, len(shown))
	for _, c := range shown {
		here[c.ID] = true
	}
	var out []string
	for _, c := range all {
		if !here[c.ID] && !c.Own && c.Checked == explicit {
			out = append(out, c.ID)
		}
	}
	return out
}

// PostAll reports whether the publish forms post "all" (and the
// proposals left out) rather than the chosen ids: when the ids are many
// and fewer would be left out (a form holds at most 1,000 fields; the
// preview hash pins the exact set either way).
func (pr publishRanking) PostAll() bool {
	return len(pr.Chosen) > listChosenUpTo && len(pr.Unchosen) < len(pr.Chosen)
}

// PageURL is the page showing page n of this ranking's lists, with the
// same choice.
func (pr publishRanking) PageURL(n int) string {
	q := url.Values{"ranking": {pr.Slug}, "page": {strconv.Itoa(n)}}
	if pr.Explicit {
		q["p"] = pr.Chosen
	} else {
		q.Set("all", "1")
		q["x"] = pr.Unchosen
	}
	return paths.Publish + "?" + q.Encode() + "#ranking-" + pr.Slug
}

// CandidatePager lists the candidates' page numbers to offer (0: a gap).
func (pr publishRanking) CandidatePager() []int { return pagerNumbers(pr.Page, pr.CandidatePages) }

// Pager lists the page numbers of the preview's lists to link (0: a gap).
func (pr publishRanking) Pager() []int { return pagerNumbers(pr.Page, pr.Pages) }

// pagerNumbers lists the page numbers to link: the first, the last and
// those around the current one (0 stands for a gap).
func pagerNumbers(page, pages int) []int {
	var out []int
	for n := 1; n <= pages; n++ {
		if n == 1 || n == pages || (n >= page-2 && n <= page+2) {
			out = append(out, n)
		} else if len(out) > 0 && out[len(out)-1] != 0 {
			out = append(out, 0)
		}
	}
	return out
}

func setOf(ids []string) map[string]bool {
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}

// choiceMode names the choice for tests and styles: "all" or "some".
func choiceMode(pr publishRanking) string {
	if pr.Explicit {
		return "some"
	}
	return "all"
}
