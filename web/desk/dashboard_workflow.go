package desk

import (
	"cmp"
	"context"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/ui"
)

// The dashboard's part of the editorial workflow: "Awaiting my review"
// puts first the proposals whose attention set holds the user, and
// "Upcoming editions" lists the pending scheduled editions.

// scheduleCancel is the cancel button of an upcoming edition.
type scheduleCancel struct {
	Ranking  string
	Schedule string
	Label    string
}

// upcomingSection lists the pending scheduled editions, soonest first,
// each with a cancel button for publishers.
func (d *Desk) upcomingSection(ctx context.Context, p ui.Page, labels *labelCache) (queueSection, error) {
	sec := queueSection{ID: "upcoming", Title: p.T("desk.queue.upcoming"), Empty: p.T("desk.queue.upcoming.empty")}
	pending, err := d.read.PendingSchedules(ctx)
	if err != nil {
		return sec, err
	}
	sec.Count = len(pending)
	for _, s := range pending {
		ids := make([]string, len(s.Proposals))
		for i, pk := range s.Proposals {
			ids[i] = pk.Proposal
		}
		it := queueItem{
			Href:   "/desk/publish?ranking=" + s.Ranking,
			Title:  p.T("desk.upcoming.title", cmp.Or(labels.get(ctx, s.Ranking).title(p.Lang), s.Ranking), momentText(p.Lang, s.At)),
			Detail: p.T("desk.upcoming.detail", joinNames(p.Lang, ids), s.By),
			Note:   s.Note,
			Badge:  "scheduled",
			Status: p.T("desk.upcoming.status"),
		}
		if p.Has(domain.RolePublisher) {
			it.Cancel = &scheduleCancel{Ranking: s.Ranking, Schedule: s.ID, Label: p.T("desk.upcoming.cancel")}
		}
		sec.Items = append(sec.Items, it)
	}
	return sec, nil
}

// momentText writes a scheduled moment in the reader's language at the
// publisher's own offset, which it names: "1 Dec 2026, 09:00 (UTC+08:00)".
func momentText(lang, at string) string {
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return at
	}
	offset := "UTC" + t.Format("-07:00")
	if lang == "zh" {
		return t.Format("2006年1月2日 15:04") + "（" + offset + "）"
	}
	return t.Format("2 Jan 2006, 15:04") + " (" + offset + ")"
}
