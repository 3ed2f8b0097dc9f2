package web

import (
	"fmt"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/desk"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// routes lists every route of the site, top to bottom. Patterns follow the
// Go 1.22 ServeMux rules; "/" is the catch-all 404/405, so the home page is
// "GET /{$}". Every route exists whatever the configuration: a page that
// needs the read models answers 503 on a server built without them (see
// needsRead), and /metrics answers 404 when it has its own address.
func (s *Server) routes() {
	handle := s.mux.Handle
	user := s.auth.RequireUser
	admin := func(h http.Handler) http.Handler { return s.auth.RequireRole(domain.RoleAdmin, h) }
	read := s.needsRead

	// Operations and assets.
	handle("GET /healthz", http.HandlerFunc(s.healthz))
	handle("GET /readyz", http.HandlerFunc(s.readyz))
	handle("GET /metrics", http.HandlerFunc(s.siteMetrics))
	handle("GET /static/", ui.Static())

	// Sign-in: GET and POST /login, POST /logout.
	s.auth.Routes(s.mux)

	// The public site: pages, feeds, the live push and the JSON API's
	// public reads.
	s.site.Routes(s.mux, read)

	// The JSON API: the writes (the session or a bearer token signs in),
	// each running the same action as its desk form, and the signed-in
	// proposal read. The audit export is the desk's (see desk.Routes).
	api.Routes(s.mux, s.commands)

	// The desk's pages: dashboard, proposals, entries, publishing, the
	// audit trail, users and the account.
	s.desk.Routes(s.mux, desk.Guards{User: user, Role: s.auth.RequireRole, Read: read})

	// The desk's forms. Each form posts to the action the JSON API runs
	// too; on failure the desk shows the page again with the message in
	// the form that failed.
	handle("POST /desk/proposals", read(command.Form(s.commands, command.OpenProposal, ppOpened, s.newProposalFailed)))
	const proposal = "POST /desk/proposals/{id}/"
	handle(proposal+"evidence", read(ppForm(s, command.AddEvidence, ppNamed[command.AddEvidenceInput]("evidence"))))
	handle(proposal+"evidence/remove", read(ppForm(s, command.RemoveEvidence, ppNamed[command.RemoveEvidenceInput]("evidence-remove"))))
	handle(proposal+"changes", read(ppForm(s, command.ProposeChange, ppChangeFormName)))
	handle(proposal+"changes/remove", read(ppForm(s, command.RemoveChange, ppNamed[command.RemoveChangeInput]("change-remove"))))
	handle(proposal+"submit", read(ppForm(s, command.Submit, ppNamed[command.SubmitInput]("submit"))))
	handle(proposal+"revise", read(ppForm(s, command.Revise, ppNamed[command.NoteInput]("revise"))))
	handle(proposal+"withdraw", read(ppForm(s, command.Withdraw, ppNamed[command.ReasonInput]("withdraw"))))
	handle(proposal+"votes", read(ppForm(s, command.Vote, ppVoteFormName)))
	handle(proposal+"dismiss-veto", read(ppForm(s, command.DismissVeto, ppNamed[command.DismissVetoInput]("dismiss"))))
	handle(proposal+"reject", read(ppForm(s, command.Reject, ppNamed[command.ReasonInput]("reject"))))

	// Publishing the next edition of a ranking, through the same action as
	// the JSON API.
	handle("POST "+paths.Publish, read(s.auth.RequireRole(domain.RolePublisher,
		command.Form(s.commands, command.Publish, s.published, s.publishFailed))))

	// Users, for admins. Issuing a token here is refused for anyone but the
	// admin themself (the domain's rule, answered 403): tokens are issued by
	// their own user on the account page.
	handle("POST "+paths.Users, read(admin(command.Form(s.commands, userAddAction,
		usersDone[userAddInput]("added"), usersFailed[userAddInput](s, "add")))))
	handle("POST "+paths.Users+"/{name}/roles/grant", read(admin(command.Form(s.commands, roleGrantAction,
		usersDone[userRoleInput]("granted"), usersFailed[userRoleInput](s, "roles")))))
	handle("POST "+paths.Users+"/{name}/roles/revoke", read(admin(command.Form(s.commands, roleRevokeAction,
		usersDone[userRoleInput]("revoked"), usersFailed[userRoleInput](s, "roles")))))
	handle("POST "+paths.Users+"/{name}/password", read(admin(command.Form(s.commands, passwordResetAction(s),
		usersDone[passwordResetInput]("password_reset"), usersFailed[passwordResetInput](s, "password")))))
	handle("POST "+paths.Users+"/{name}/tokens", read(admin(http.HandlerFunc(s.userTokenIssue))))
	handle("POST "+paths.Users+"/{name}/tokens/{token}/revoke", read(admin(command.Form(s.commands, tokenRevokeAction,
		usersDone[tokenRevokeInput]("token_revoked"), usersFailed[tokenRevokeInput](s, "tokens")))))

	// The signed-in user's own account: password and API tokens.
	handle("POST "+paths.Account+"/password", read(command.Form(s.commands, passwordChangeAction(s),
		accountDone[passwordChangeInput]("password"), accountFailed[passwordChangeInput](s, "password"))))
	handle("POST "+paths.Account+"/tokens", read(user(http.HandlerFunc(s.accountTokenIssue))))
	handle("POST "+paths.Account+"/tokens/{token}/revoke", read(command.Form(s.commands, tokenRevokeAction,
		accountDone[tokenRevokeInput]("token_revoked"), accountFailed[tokenRevokeInput](s, "tokens"))))

	handle("/", http.HandlerFunc(s.noRoute))
}

// errNoReadModels answers a page of a server built without read models
// (Config.Read nil, as in tests of the API alone): 503, as when the read
// models are down.
var errNoReadModels = fmt.Errorf("%w: the server has no read models", events.ErrUnavailable)

// needsRead guards a handler that queries the read models.
func (s *Server) needsRead(h http.Handler) http.Handler {
	if s.read != nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ui.Fail(w, r, errNoReadModels) })
}
