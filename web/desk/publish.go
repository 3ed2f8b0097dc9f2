package desk

import (
	"net/http"

	"github.com/crossrank/crossrank/web/ui"
)

// servePublish shows, per ranking, the cross-validated proposals and the
// preview of the edition they make. ?ranking=<slug>&p=<id>&p=<id> previews
// a chosen subset of one ranking; every other ranking previews all.
// ?ranking=<slug>&all=1&x=<id>&page=N shows page N of a ranking
// previewing all but those excepted (publish_choice.go).
func (d *Desk) servePublish(w http.ResponseWriter, r *http.Request) {
	d.RenderPublish(w, r, http.StatusOK, choiceOf(r.URL.Query()), ui.FormState{})
}

// RenderPublish shows the publish page for choice with status; st is the
// state of a failed publish of choice.Ranking, shown next to its form
// with a fresh preview of the same choice: after a 409 the publisher sees
// what changed and can publish the new preview.
func (d *Desk) RenderPublish(w http.ResponseWriter, r *http.Request, status int, choice PublishChoice, st ui.FormState) {
	v, err := d.publishView(r, choice, st)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	ui.Render(w, r, status, publishPage(v))
}
