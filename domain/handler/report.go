package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// The commands on readers' reports: the intake opens (or folds) one, an
// editor accepts, declines or marks it a duplicate.

// Intake returns the actor of the public intake: a reader without an
// account, holding no role, recorded as the system through the intake.
func Intake() domain.Actor {
	return domain.Actor{Name: domain.SystemActor, Via: events.Via{Method: events.ViaIntake}}
}

// ReportOutcome is what opening a report did.
type ReportOutcome struct {
	Result
	ID     string // the report's id
	Folded bool   // the same report came earlier in the window: counted on it
}

// OpenReport opens a reader's report, or folds it into the same report
// sent earlier within the folding window.
func (h *Handler) OpenReport(ctx context.Context, c domain.OpenReport) (ReportOutcome, error) {
	if err := domain.CheckReport(c); err != nil {
		return ReportOutcome{}, err
	}
	out := ReportOutcome{ID: domain.ReportID(c, h.now())}
	var err error
	out.Result, err = h.run(ctx, command{actor: Intake(), writes: []events.Aggregate{domain.ReportAggregate(out.ID)},
		reads: []events.Aggregate{domain.RankingID(c.Ranking), domain.EditionID(c.Ranking)},
		decide: func(s states) ([]domain.Change, error) {
			rep := s.report(out.ID)
			out.Folded = rep.Exists()
			return domain.DecideOpenReport(s.ranking(c.Ranking), s.edition(c.Ranking), rep, out.ID, c)
		}})
	return out, err
}

// AcceptReport opens the report's draft proposal and records it on the
// report, in one atomic batch.
func (h *Handler) AcceptReport(ctx context.Context, a domain.Actor, c domain.AcceptReport) (Result, error) {
	rep, err := h.Report(ctx, c.Report)
	if err != nil {
		return Result{}, err
	}
	if err := domain.CheckProposalRefs(domain.ReportProposal(rep, c)); err != nil {
		return Result{}, err
	}
	r, e := rep.Opened.Ranking, rep.Opened.Entry
	return h.run(ctx, command{actor: a, commandID: c.CommandID,
		writes: []events.Aggregate{domain.ReportAggregate(c.Report), domain.ProposalID(c.Proposal)},
		reads:  []events.Aggregate{domain.RankingID(r), domain.EditionID(r), domain.EntryID(r, e)},
		decide: func(s states) ([]domain.Change, error) {
			return domain.DecideAcceptReport(s.report(c.Report), s.ranking(r), s.entry(r, e), s.edition(r), s.proposal(c.Proposal), a, c)
		}})
}

// DeclineReport declines a report with a public reason.
func (h *Handler) DeclineReport(ctx context.Context, a domain.Actor, c domain.DeclineReport) (Result, error) {
	if !events.ValidID(c.Report) {
		return Result{}, domain.ErrReportMissing
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{domain.ReportAggregate(c.Report)},
		decide: func(s states) ([]domain.Change, error) {
			return domain.DecideDeclineReport(s.report(c.Report), a, c)
		}})
}

// MarkDuplicate marks a report a duplicate of another.
func (h *Handler) MarkDuplicate(ctx context.Context, a domain.Actor, c domain.MarkDuplicate) (Result, error) {
	if !events.ValidID(c.Report) || !events.ValidID(c.Of) {
		return Result{}, domain.ErrReportMissing
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{domain.ReportAggregate(c.Report)},
		reads: []events.Aggregate{domain.ReportAggregate(c.Of)},
		decide: func(s states) ([]domain.Change, error) {
			return domain.DecideMarkDuplicate(s.report(c.Report), s.report(c.Of), a, c)
		}})
}

// Report returns a report's current state.
func (h *Handler) Report(ctx context.Context, id string) (*domain.Report, error) {
	if !events.ValidID(id) {
		return nil, domain.ErrReportMissing
	}
	s, err := h.read(ctx, domain.ReportAggregate(id))
	if r, ok := s.(*domain.Report); ok && err == nil && r.Exists() {
		return r, nil
	}
	return nil, orErr(err, domain.ErrReportMissing)
}

func (s states) report(id string) *domain.Report {
	return stateOr(s, domain.ReportAggregate(id), &domain.Report{})
}
