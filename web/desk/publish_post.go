package desk

import (
	"net/http"

	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/ui"
)

// publishFailed shows the page again with the message next to the
// ranking's form and a fresh preview of the same choice: after a 409 the
// publisher sees what changed and can publish the new preview. A form
// whose preview is already the latest edition (posted again from another
// tab; the same tab's retry replays) is told so, with a link to that
// edition, instead of why its proposals can no longer be published.
func (d *Desk) publishFailed(w http.ResponseWriter, r *http.Request, in *command.PublishInput, st ui.FormState, status int) {
	choice := PublishChoice{Ranking: in.Ranking, Proposals: in.Proposals, All: in.All, Except: in.Except, Failed: true}
	if ed, err := command.PublishedAs(r.Context(), d.cmd, in.Ranking, in.PreviewHash); err == nil && ed != nil {
		choice.Already = ed.Number
		st = ui.FormState{}
	}
	d.RenderPublish(w, r, status, choice, st)
}
