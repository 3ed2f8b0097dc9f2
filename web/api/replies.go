package api

import (
	"net/http"

	"github.com/crossrank/crossrank/web/command"
)

// ReplyRoutes lists the routes of vendors' statements: a vendor writes
// one about its own entry (the desk's statement form's door), an editor
// hides one with a public reason. The statements are read on the public
// entry's JSON (replies) and its contact timeline.
func ReplyRoutes(mux *http.ServeMux, d *command.Deps) {
	mux.Handle("POST /api/v1/rankings/{slug}/entries/{entry}/replies",
		command.LimitBody(command.MaxReplyBody, command.JSON(d, command.WriteReply)))
	mux.Handle("POST /api/v1/replies/{id}/hide", command.JSON(d, command.HideReply))
}
