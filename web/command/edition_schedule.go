package command

import (
	"context"
	"net/http"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// ScheduleInput schedules the chosen cross-validated proposals' edition
// for a moment (RFC 3339, any offset). preview_hash is the hash of the
// preview the publisher approved: at the moment, the edition publishes
// only if the fresh preview gives the same snapshot.
type ScheduleInput struct {
	WithCommandID
	Ranking     string   `json:"-"`
	Proposals   []string `json:"proposals"`
	PreviewHash string   `json:"preview_hash"`
	At          string   `json:"at"`
	Note        string   `json:"note,omitempty"`
	All         bool     `json:"-"` // as PublishInput.All
	Except      []string `json:"-"` // as PublishInput.Except
}

// Scheduled is the API's answer to a schedule: its id (the command id,
// so that a retry names the same schedule), moment and state.
type Scheduled struct {
	ID      string `json:"id"`
	At      string `json:"at"`
	State   string `json:"state"`
	Command string `json:"command"`
	// Sequence is the stream sequence of the event stored.
	Sequence uint64 `json:"sequence"`
	Replayed bool   `json:"replayed,omitempty"`
}

var ScheduleEdition = Action[ScheduleInput]{
	Name:    "edition.schedule",
	Created: true,
	Path:    func(r *http.Request, in *ScheduleInput) { in.Ranking = rankingPath(r, in.Ranking) },
	Form: func(f *httpx.Form, in *ScheduleInput) {
		in.Ranking, in.Proposals = f.Str("ranking"), f.Strs("proposals")
		in.PreviewHash, in.At, in.Note = f.Str("preview_hash"), f.Str("at"), f.Str("note")
		in.All, in.Except = f.Str("all") == "1", f.Strs("except")
	},
	Run: scheduleEdition,
	Resource: func(_ *Deps, _ context.Context, in *ScheduleInput, commandID string) (string, string) {
		return commandID, scheduleLocation(in.Ranking, commandID)
	},
	Answer: func(d *Deps, ctx context.Context, in *ScheduleInput, commandID string, res handler.Result) any {
		out := Scheduled{ID: commandID, At: in.At, State: domain.SchedulePending, Command: commandID,
			Sequence: res.Sequence, Replayed: res.Replayed}
		if ed, err := d.Commands.Edition(ctx, in.Ranking); err == nil && ed.Schedules[commandID] != nil {
			s := ed.Schedules[commandID]
			out.At, out.State = s.At, s.State
		}
		return out
	},
}

func scheduleEdition(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ScheduleInput) (handler.Result, error) {
	at, err := time.Parse(time.RFC3339, in.At)
	if err != nil {
		return handler.Result{}, &httpx.BadField{Field: "at", Code: "field.time"}
	}
	ids, err := chosen(d, ctx, a, in.Ranking, choice{all: in.All, listed: in.Proposals, except: in.Except})
	if err != nil {
		return handler.Result{}, err
	}
	return d.Commands.ScheduleEdition(ctx, a, domain.ScheduleEdition{CommandID: commandID, Ranking: in.Ranking,
		Schedule: commandID, Proposals: ids, PreviewHash: in.PreviewHash, At: at, Note: in.Note})
}

// CancelScheduleInput cancels a pending scheduled edition.
type CancelScheduleInput struct {
	WithCommandID
	Ranking  string `json:"-"`
	Schedule string `json:"-"`
	Reason   string `json:"reason,omitempty"`
}

var CancelSchedule = Action[CancelScheduleInput]{
	Name:      "edition.schedule_cancel",
	NoContent: true,
	Path: func(r *http.Request, in *CancelScheduleInput) {
		in.Ranking = rankingPath(r, in.Ranking)
		if id := r.PathValue("schedule"); id != "" {
			in.Schedule = id
		}
	},
	Form: func(f *httpx.Form, in *CancelScheduleInput) {
		in.Ranking, in.Schedule, in.Reason = f.Str("ranking"), f.Str("schedule"), f.Str("reason")
	},
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *CancelScheduleInput) (handler.Result, error) {
		return d.Commands.CancelSchedule(ctx, a, domain.CancelSchedule{CommandID: commandID, Ranking: in.Ranking,
			Schedule: in.Schedule, Reason: in.Reason})
	},
	Resource: func(_ *Deps, _ context.Context, in *CancelScheduleInput, _ string) (string, string) {
		return in.Schedule, ""
	},
}

// rankingPath returns the {slug} wildcard, or def when the route has none.
func rankingPath(r *http.Request, def string) string {
	if slug := r.PathValue("slug"); slug != "" {
		return slug
	}
	return def
}

func scheduleLocation(ranking, id string) string {
	return "/api/v1/rankings/" + ranking + "/editions/schedule/" + id
}
