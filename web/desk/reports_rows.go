package desk

import (
	"cmp"
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// reportRow is one report of the triage queue with the names people read
// beside the slugs and ids it stores: the entry's name, the criterion's,
// the accepted report's proposal's title, and the report it duplicates.
type reportRow struct {
	projections.Report
	RankingTitle  string
	EntryName     string
	CriterionName string
	ProposalTitle string
	DuplicateText string // "Duplicate of the report of 6 Dec 2026 about Matpool"
	Folded        string // "sent 2 more times"; "" when none was folded in
}

// reportRowsOf names the reports of a page: each ranking's definition is
// read once, and each report another duplicates once.
func (d *Desk) reportRowsOf(ctx context.Context, p ui.Page, rows []projections.Report) ([]reportRow, error) {
	rankings := map[string]*domain.Ranking{}
	out := make([]reportRow, 0, len(rows))
	for _, rp := range rows {
		rk, ok := rankings[rp.Ranking]
		if !ok {
			var err error
			if rk, err = d.cmd.Ranking(ctx, rp.Ranking); err != nil {
				return nil, err
			}
			rankings[rp.Ranking] = rk
		}
		l := rankingLabels{rk}
		row := reportRow{Report: rp, RankingTitle: cmp.Or(l.title(p.Lang), rp.Ranking),
			EntryName: cmp.Or(rp.EntryName.In(p.Lang), rp.Entry), ProposalTitle: cmp.Or(rp.ProposalTitle, rp.Proposal)}
		if rp.Criterion != "" {
			row.CriterionName = l.criterion(p.Lang, rp.Criterion)
		}
		if rp.Folded > 0 {
			row.Folded = plural(p.Lang, "reports.folded", rp.Folded, rp.Folded)
		}
		if rp.DuplicateOf != "" {
			row.DuplicateText = p.T("corrections.duplicate", rp.DuplicateOf)
			orig, found, err := d.read.ReportRow(ctx, rp.DuplicateOf)
			if err != nil {
				return nil, err
			}
			if found {
				row.DuplicateText = p.T("reports.duplicate_of_report", p.DateTime(parseTime(orig.OpenedAt)), cmp.Or(orig.EntryName.In(p.Lang), orig.Entry))
			}
		}
		out = append(out, row)
	}
	return out, nil
}
