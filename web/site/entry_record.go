package site

import (
	"slices"
	"strings"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// An entry's public record: every change published to it, newest first,
// with the edition that published it, the proposal it came from, who
// wrote that proposal, who approved it and who published the edition.
// It is the reader's audit trail: the entry page's "Audit record" links
// lead here (#record-<proposal>), not to the desk, which asks for a
// sign-in. What it shows is what the edition, its proposal list and the
// quorum already make public.

// recordRow is one published change.
type recordRow struct {
	Anchor      string // "record-<proposal>" on a proposal's first row; ""
	Edition     int
	EditionHref string
	Change      string // "Delivery forms: 3 → 5"
	Proposal    string
	Title       string
	Author      string
	Approvers   string // "reviewer1, reviewer2"; "" when none is recorded
	Publisher   string
}

// recordOf lists changes (an entry's, in edition order) newest first.
func recordOf(p ui.Page, l linkSet, e projections.EntryView, changes []projections.PublishedChange, publishers map[int]string) []recordRow {
	props := map[string]projections.ProposalSummary{}
	for _, pr := range e.Proposals {
		props[pr.ID] = pr
	}
	crit := map[string]string{}
	for _, c := range e.Ranking.Criteria {
		crit[c.Slug] = c.Name.In(p.Lang)
	}
	seen := map[string]bool{}
	var out []recordRow
	for _, c := range slices.Backward(changes) {
		pr := props[c.Proposal]
		row := recordRow{Edition: c.Edition, EditionHref: l.Edition(e.Ranking.Slug, c.Edition), Proposal: c.Proposal,
			Title: pr.Title, Author: pr.Author, Approvers: strings.Join(pr.Quorum.Approvers, ", "), Publisher: publishers[c.Edition]}
		if !seen[c.Proposal] {
			seen[c.Proposal] = true
			row.Anchor = recordAnchor(c.Proposal)
		}
		switch c.Kind() {
		case "score":
			row.Change = orSlug(crit[c.Key()], c.Key()) + ": " + scoreText(c.FromScore) + " → " + scoreText(c.ToScore)
		default:
			name, from, to := c.Key(), c.FromTags, c.ToTags
			if def, ok := e.Ranking.Attribute(c.Key()); ok {
				name = def.Name.In(p.Lang)
				from, to = tagLabels(p, def.Values, from), tagLabels(p, def.Values, to)
			}
			row.Change = name + ": " + orDash(strings.Join(from, ", ")) + " → " + orDash(strings.Join(to, ", "))
		}
		out = append(out, row)
	}
	return out
}

func recordAnchor(proposal string) string { return "record-" + proposal }
