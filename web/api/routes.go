// Package api is the JSON API's writes and its signed-in reads. Every
// write runs the same command.Action as its desk form, through
// command.JSON: the session or a bearer token signs in, the body decodes
// strictly, and the Idempotency-Key header or the body's "id" is the
// command id. The public reads live with the public site, except the
// methodology (see methodology).
package api

import (
	"net/http"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/command"
)

// Reads is what the API's list and methodology reads need from the read
// models.
type Reads struct {
	// Models answers the reads; it is only called through Guard.
	Models ReadModels
	// Guard wraps each handler that queries Models, and answers instead
	// while the server has no read models.
	Guard func(http.Handler) http.Handler
}

// optional returns Models, or nil when the server has none: for the reads
// that answer from the event store and only add what the read models know.
func (rd Reads) optional() ReadModels {
	if rd.Models == nil || rd.Models == ReadModels((*projections.Store)(nil)) {
		return nil
	}
	return rd.Models
}

// Routes lists the API's routes on mux; d runs the commands and signs the
// user in, rd answers the reads of the read models.
func Routes(mux *http.ServeMux, d *command.Deps, rd Reads) {
	handle := mux.Handle
	user := d.RequireUser
	read := rd.Guard

	handle("GET /api/v1/openapi.json", openAPI())
	handle("GET /api/v1/proposals", read(user(proposalList(d.Commands, rd.Models))))
	handle("GET /api/v1/search", read(user(search(rd.Models))))
	handle("POST /api/v1/proposals", command.JSON(d, command.OpenAnyProposal))
	handle("GET /api/v1/proposals/{id}", user(proposal(d.Commands, rd.optional())))
	handle("PUT /api/v1/proposals/{id}/methodology", command.JSON(d, command.ProposeMethodology))
	handle("POST /api/v1/proposals/{id}/evidence", command.JSON(d, command.AddEvidence))
	handle("DELETE /api/v1/proposals/{id}/evidence/{evidence}", command.JSON(d, command.RemoveEvidence))
	handle("POST /api/v1/proposals/{id}/changes", command.JSON(d, command.ProposeChange))
	handle("DELETE /api/v1/proposals/{id}/changes/{target}", command.JSON(d, command.RemoveChange))
	handle("POST /api/v1/proposals/{id}/submit", command.JSON(d, command.Submit))
	handle("POST /api/v1/proposals/{id}/withdraw", command.JSON(d, command.Withdraw))
	handle("POST /api/v1/proposals/{id}/revise", command.JSON(d, command.Revise))
	handle("POST /api/v1/proposals/{id}/votes", command.JSON(d, command.Vote))
	handle("POST /api/v1/votes", command.JSON(d, command.CastVotes))
	handle("POST /api/v1/proposals/{id}/dismiss-veto", command.JSON(d, command.DismissVeto))
	handle("POST /api/v1/proposals/{id}/reject", command.JSON(d, command.Reject))
	handle("POST /api/v1/rankings/{slug}/editions/preview", user(editionPreview(d)))
	handle("POST /api/v1/rankings/{slug}/editions", command.JSON(d, publishWithPreview()))
	handle("GET /api/v1/rankings/{slug}/methodology", read(methodology(rd.Models)))
	handle("POST /api/v1/rankings/{slug}/editions/schedule", command.JSON(d, scheduleWithPreview()))
	handle("GET /api/v1/rankings/{slug}/editions/schedule", read(user(scheduleList(rd.Models))))
	handle("GET /api/v1/rankings/{slug}/editions/schedule/{schedule}", read(user(schedule(rd.Models))))
	handle("DELETE /api/v1/rankings/{slug}/editions/schedule/{schedule}", command.JSON(d, command.CancelSchedule))
	handle("POST /api/v1/proposals/{id}/reviewers", command.JSON(d, command.RequestReviewers))
	handle("POST /api/v1/proposals/{id}/comments", command.JSON(d, command.AddComment))
	handle("POST /api/v1/proposals/{id}/comments/{comment}/resolve", command.JSON(d, command.ResolveComment))
	handle("POST /api/v1/rankings/{slug}/entries/{entry}/conflicts", command.JSON(d, command.DeclareConflict))
	handle("POST /api/v1/rankings/{slug}/conflicts", command.JSON(d, command.DeclareConflict))
	handle("GET /api/v1/rankings/{slug}/conflicts", read(conflicts(rd.Models)))
	handle("GET /api/v1/inbox", read(user(inbox(rd.Models))))
	handle("POST /api/v1/inbox/read", command.JSON(d, command.MarkInboxRead))
	handle("POST /api/v1/inbox/feed-token", feedTokenCreate(d))
	handle("DELETE /api/v1/inbox/feed-token", command.JSON(d, command.RevokeFeedToken))
	handle("GET /feeds/inbox/{file}", read(inboxFeed(d.Commands, rd.Models)))
	handle("GET /api/v1/webhooks/deliveries", read(user(deliveries(rd.Models))))
	handle("POST /api/v1/webhooks/redeliver", command.JSON(d, command.Redeliver))
	handle("PUT /api/v1/rankings/{slug}/chat-webhook", command.JSON(d, command.SetChatWebhook))
}

// Accounts is what the users and account routes need besides the command
// path.
type Accounts struct {
	// Sessions ends a user's sessions on a reset, and moves the caller's
	// session to their new password.
	Sessions command.Sessions
	// Read answers the users and tokens; it is only called through Guard.
	Read UserReads
	// Guard wraps each handler that queries Read (see Reads.Guard).
	Guard func(http.Handler) http.Handler
	// PublicURL is the site's address for the one-time links an admin
	// passes on; "": the address the admin's request came to.
	PublicURL string
}

// UserRoutes lists the routes of the users (admins: the desk's users page)
// and of the caller's own account (the desk's account page), each write
// running the desk form's action.
func UserRoutes(mux *http.ServeMux, d *command.Deps, ac Accounts) {
	handle := mux.Handle
	user := d.RequireUser
	read := ac.Guard
	link := func(h http.Handler) http.Handler { return withOrigin(ac.PublicURL, h) }

	handle("GET /api/v1/users", read(user(userList(d.Commands, ac.Read))))
	handle("POST /api/v1/users", link(command.JSON(d, inviteUser())))
	handle("GET /api/v1/users/{name}", read(user(userGet(d.Commands, ac.Read))))
	handle("POST /api/v1/users/{name}/roles", command.JSON(d, command.GrantRole))
	handle("DELETE /api/v1/users/{name}/roles/{role}", command.JSON(d, command.RevokeRole))
	handle("POST /api/v1/users/{name}/password-reset", link(command.JSON(d, resetPassword(ac.Sessions))))
	handle("DELETE /api/v1/users/{name}/invitation", command.JSON(d, command.RevokeInvitation))
	handle("DELETE /api/v1/users/{name}/tokens/{token}", command.JSON(d, command.RevokeToken))
	handle("GET /api/v1/account", read(user(account(d.Commands, ac.Read))))
	handle("POST /api/v1/account/password", command.JSON(d, command.ChangePassword(ac.Sessions)))
	handle("GET /api/v1/account/tokens", read(user(accountTokens(ac.Read))))
	handle("POST /api/v1/account/tokens", command.JSON(d, issueToken()))
	handle("DELETE /api/v1/account/tokens/{token}", command.JSON(d, command.RevokeToken))
}
