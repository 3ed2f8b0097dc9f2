package desk

import (
	"net/http"
	"time"
	_ "time/tzdata" // the zones the schedule form offers, on hosts without a zoneinfo database

	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// Scheduling an edition from the publish page: the same preview, the same
// hash, and a moment typed as a wall-clock time (datetime-local) in a
// chosen zone, which the form turns into the RFC 3339 moment the API takes.

// defaultZone is the zone the form starts in: the desk's newsroom.
const defaultZone = "Asia/Shanghai"

// localTimeLayouts are what a datetime-local input sends, with or
// without seconds.
var localTimeLayouts = []string{"2006-01-02T15:04", "2006-01-02T15:04:05"}

// zoneOption is one choice of the form's zone select.
type zoneOption struct {
	Value string // an IANA name, or "Local" for the server's zone
	Label string
}

// scheduleZones are the zones the form offers: the newsroom's, UTC, and
// the server's own.
func scheduleZones(lang string, now time.Time) []zoneOption {
	out := []zoneOption{{Value: defaultZone, Label: i18n.T(lang, "publish.schedule.zone.shanghai")},
		{Value: "UTC", Label: "UTC"}}
	name, _ := now.In(time.Local).Zone()
	out = append(out, zoneOption{Value: "Local", Label: i18n.T(lang, "publish.schedule.zone.server", time.Local.String(), name)})
	return out
}

// zoneOf returns the location of a zone the form offers, or false.
func zoneOf(value string) (*time.Location, bool) {
	switch value {
	case defaultZone, "UTC":
		loc, err := time.LoadLocation(value)
		return loc, err == nil
	case "Local":
		return time.Local, true
	}
	return nil, false
}

// scheduleAction is the API's schedule action with the form's reading of
// the moment: at_local in zone becomes the RFC 3339 "at".
var scheduleAction = func() command.Action[command.ScheduleInput] {
	act := command.ScheduleEdition
	form := act.Form
	act.Form = func(f *httpx.Form, in *command.ScheduleInput) {
		form(f, in)
		loc, ok := zoneOf(f.Str("zone"))
		if !ok {
			f.FieldErr("zone", "schedule.zone")
			return
		}
		for _, layout := range localTimeLayouts {
			if t, err := time.ParseInLocation(layout, f.Str("at_local"), loc); err == nil {
				in.At = t.Format(time.RFC3339)
				return
			}
		}
		f.FieldErr("at", "schedule.local_time")
	}
	return act
}()

// scheduled sends the publisher to the dashboard's upcoming editions.
func scheduled(*http.Request, *command.ScheduleInput, handler.Result) string {
	return paths.Desk + "#queue-upcoming"
}

// scheduleCanceled goes back to the dashboard.
func scheduleCanceled(*http.Request, *command.CancelScheduleInput, handler.Result) string {
	return paths.Desk + "#queue-upcoming"
}

// scheduleFailed shows the publish page again with the message in the
// ranking's schedule form and a fresh preview of the same choice.
func (d *Desk) scheduleFailed(w http.ResponseWriter, r *http.Request, in *command.ScheduleInput, st ui.FormState, status int) {
	d.RenderPublish(w, r, status, PublishChoice{Ranking: in.Ranking, Proposals: in.Proposals, All: in.All, Except: in.Except, Failed: true, Scheduling: true}, st)
}
