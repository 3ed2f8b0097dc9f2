package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// Schedule is a scheduled edition: pending until its moment, then
// published (edition), failed (code and detail say why) or canceled.
type Schedule struct {
	ID          string                 `json:"id"`
	Ranking     string                 `json:"ranking"`
	At          string                 `json:"at"`
	By          string                 `json:"by"`
	Proposals   []events.ScheduledPick `json:"proposals"`
	PreviewHash string                 `json:"preview_hash"`
	Note        string                 `json:"note,omitempty"`
	State       string                 `json:"state"`
	Code        string                 `json:"code,omitempty"`
	Detail      string                 `json:"detail,omitempty"`
	Edition     int                    `json:"edition,omitempty"`
	ScheduledAt string                 `json:"scheduled_at"`
	UpdatedAt   string                 `json:"updated_at"`
}

// ScheduleList is GET /api/v1/rankings/{slug}/editions/schedule: the
// pending schedules soonest first, then the past ones, latest first.
type ScheduleList struct {
	Upcoming []Schedule `json:"upcoming"`
	Past     []Schedule `json:"past"`
}

// scheduleList answers GET /api/v1/rankings/{slug}/editions/schedule to
// the signed-in.
func scheduleList(read ReadModels) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		slug := r.PathValue("slug")
		if _, _, err := read.Definition(r.Context(), slug); err != nil {
			ui.Fail(w, r, err)
			return
		}
		rows, err := read.Schedules(r.Context(), slug)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		out := ScheduleList{Upcoming: []Schedule{}, Past: []Schedule{}}
		for _, s := range rows {
			v := scheduleOf(s)
			if s.State == domain.SchedulePending {
				out.Upcoming = append(out.Upcoming, v)
			} else {
				out.Past = append(out.Past, v)
			}
		}
		httpx.WriteJSON(w, http.StatusOK, out)
	}
}

// schedule answers GET /api/v1/rankings/{slug}/editions/schedule/{schedule}
// to the signed-in: one scheduled edition, where its 201 pointed.
func schedule(read ReadModels) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rows, err := read.Schedules(r.Context(), r.PathValue("slug"))
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		for _, s := range rows {
			if s.ID == r.PathValue("schedule") {
				httpx.WriteJSON(w, http.StatusOK, scheduleOf(s))
				return
			}
		}
		ui.Fail(w, r, domain.ErrScheduleMissing)
	}
}

func scheduleOf(s projections.ScheduleRow) Schedule {
	return Schedule{ID: s.ID, Ranking: s.Ranking, At: s.At, By: s.By, Proposals: orEmpty(s.Proposals),
		PreviewHash: s.PreviewHash, Note: s.Note, State: s.State, Code: s.Code, Detail: s.Detail, Edition: s.Edition,
		ScheduledAt: s.ScheduledAt, UpdatedAt: s.UpdatedAt}
}

// scheduleWithPreview is command.ScheduleEdition whose 409 for a changed
// preview carries the current preview, as publishing's does.
func scheduleWithPreview() command.Action[command.ScheduleInput] {
	act := command.ScheduleEdition
	run := act.Run
	act.Run = func(d *command.Deps, ctx context.Context, a domain.Actor, commandID string, in *command.ScheduleInput) (handler.Result, error) {
		res, err := run(d, ctx, a, commandID, in)
		if errors.Is(err, domain.ErrPreviewChanged) {
			if pv, perr := previewOf(ctx, d.Commands, in.Ranking, in.Proposals); perr == nil {
				err = &httpx.WithMembers{Err: err, Members: pv}
			}
		}
		return res, err
	}
	return act
}
