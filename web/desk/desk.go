// Package desk serves the editorial desk's pages: the dashboard, proposals
// and their impact, new proposals, entries, publishing, the audit trail,
// users and the signed-in user's account. Each page's view model sits
// beside its template. The forms post through the command path
// (web/command), the same actions the JSON API runs; a failed form shows
// its page again with the Render methods here.
package desk

import (
	"context"
	"log/slog"
	"net/http"
	"sync"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/imports"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// Config configures a Desk. Write, Sessions and Read are required; every
// other field has a working zero value, noted on the field.
type Config struct {
	// Write is the command path the forms post through. Its Commands also
	// loads proposals, editions and entries as the domain sees them now:
	// what a user may do, and the rank impact.
	Write *command.Deps
	// Sessions ends sessions when a password changes.
	Sessions Sessions
	// Read is the read models the pages query.
	Read *projections.Store
	// Verify checks the audit chain for the audit page; nil: the page says
	// it cannot verify.
	Verify Verifier
	// Log receives what a request log would not show; nil: slog.Default().
	Log *slog.Logger
	// Passages marks the quote in an archived copy for reviewers; nil:
	// the desk links no highlighted copies.
	Passages Passages
	// PublicURL is the site's address for the one-time links an admin
	// passes on ("https://rank.example"); "": the address the admin's
	// request came to.
	PublicURL string
	// Retries counts the sources whose capture is failing now and waits
	// for a retry (capture.RetryCount); nil: the import page does not say.
	Retries CaptureRetries
	// Imports runs the imports the import page starts; required.
	Imports *imports.Jobs
	// SignIn is how people sign in (the welcome page offers the OpenID
	// Provider, and refuses passwords when they are off); zero: passwords.
	SignIn auth.SignIn
}

// CaptureRetries counts the sources whose last fetch failed and that wait
// for another attempt, over the whole desk.
type CaptureRetries interface {
	Retrying(ctx context.Context) (int, error)
}

// Sessions are the session operations the password forms need.
type Sessions interface {
	// Reopen moves the session sid to the password whose hash is pwHash:
	// it stays signed in, and every other session of its user ends.
	Reopen(ctx context.Context, sid, pwHash string) error
	// EndSessions ends every session of user and returns how many it ended.
	EndSessions(ctx context.Context, user string) (int, error)
}

var _ Sessions = (*auth.Service)(nil)

// Desk serves the desk's pages and forms.
type Desk struct {
	cmd       *handler.Handler
	write     *command.Deps
	sessions  Sessions
	signIn    auth.SignIn
	read      *projections.Store
	verify    Verifier
	log       *slog.Logger
	passages  Passages
	publicURL string
	imports   *imports.Jobs
	retries   CaptureRetries
	previews  previewCache // the publish page's latest preview of each ranking

	streams   streamLimit   // the live streams open per session and address
	closed    chan struct{} // closed by CloseStreams
	closeOnce sync.Once
}

// New returns the desk for cfg.
func New(cfg Config) *Desk {
	d := &Desk{cmd: cfg.Write.Commands, write: cfg.Write, sessions: cfg.Sessions, signIn: cfg.SignIn, read: cfg.Read, verify: cfg.Verify, log: cfg.Log,
		passages: cfg.Passages, publicURL: cfg.PublicURL, imports: cfg.Imports, retries: cfg.Retries, closed: make(chan struct{})}
	if d.log == nil {
		d.log = slog.Default()
	}
	return d
}

// CloseStreams ends every desk stream (GET /desk/events and the proposal
// pages' capture streams). Streams never go idle, so a server registers it
// with http.Server.RegisterOnShutdown.
func (d *Desk) CloseStreams() { d.closeOnce.Do(func() { close(d.closed) }) }

// Guards wrap the desk's pages and forms: User lets any signed-in user
// in, Role only users holding the role, and Read answers 503 when the read
// models are missing.
type Guards struct {
	User func(http.Handler) http.Handler
	Role func(role string, h http.Handler) http.Handler
	Read func(http.Handler) http.Handler
}

// Routes lists the desk's pages, the forms they post, and the one API read
// the desk owns: the audit export. Each form runs the action the JSON API
// runs too (web/command); the proposal forms and the account's password
// form sign the user in through the command path itself.
func (d *Desk) Routes(mux *http.ServeMux, g Guards) {
	handle := func(pattern string, h http.Handler) { mux.Handle(pattern, g.Read(d.withUnread(h))) }
	user := func(h http.HandlerFunc) http.Handler { return g.User(h) }
	role := func(role string, h http.Handler) http.Handler { return g.Role(role, h) }
	admin := func(h http.Handler) http.Handler { return g.Role(domain.RoleAdmin, h) }

	// The dashboard.
	handle("GET "+paths.Desk, user(d.serveDashboard))
	mux.Handle("GET /desk/{$}", http.RedirectHandler(paths.Desk, http.StatusMovedPermanently))

	// Proposals: a new one, its page, its rank impact and its forms.
	handle("GET /desk/proposals/new", role(domain.RoleEditor, http.HandlerFunc(d.serveNewProposal)))
	handle("POST /desk/proposals", command.Form(d.write, command.OpenProposal, proposalOpened, d.newProposalFailed))
	handle("GET /desk/proposals/{id}", user(d.serveProposal))
	handle("GET /desk/proposals/{id}/impact", user(d.serveImpact))
	handle("GET /desk/proposals/{id}/evidence/{evidence}/passage", user(d.servePassage))
	handle("GET /desk/proposals/{id}/captures", user(d.serveCaptureEvents))
	const proposal = "POST /desk/proposals/{id}/"
	handle(proposal+"evidence", proposalForm(d, command.AddEvidence, formNamed[command.AddEvidenceInput]("evidence")))
	handle(proposal+"evidence/remove", proposalForm(d, command.RemoveEvidence, formNamed[command.RemoveEvidenceInput]("evidence-remove")))
	handle(proposal+"changes", proposalForm(d, command.ProposeChange, changeFormName))
	handle(proposal+"changes/remove", proposalForm(d, command.RemoveChange, formNamed[command.RemoveChangeInput]("change-remove")))
	handle(proposal+"submit", proposalForm(d, command.Submit, formNamed[command.SubmitInput]("submit")))
	handle(proposal+"revise", proposalForm(d, command.Revise, formNamed[command.NoteInput]("revise")))
	handle(proposal+"withdraw", proposalForm(d, command.Withdraw, formNamed[command.ReasonInput]("withdraw")))
	handle(proposal+"votes", g.User(d.askUnverified(command.Form(d.write, command.Vote, d.voted,
		func(w http.ResponseWriter, r *http.Request, in *command.VoteInput, st ui.FormState, status int) {
			d.RenderProposal(w, r, status, voteFormName(in), st)
		}))))
	handle(proposal+"dismiss-veto", proposalForm(d, command.DismissVeto, formNamed[command.DismissVetoInput]("dismiss")))
	handle(proposal+"reject", proposalForm(d, command.Reject, formNamed[command.ReasonInput]("reject")))

	// Methodology proposals: a new ranking, a change to a ranking's
	// methodology, and the edit of a methodology draft.
	editor := func(h http.HandlerFunc) http.Handler { return role(domain.RoleEditor, h) }
	methodology := func() http.Handler {
		return d.withRows(command.Form(d.write, command.EditMethodology, methodologyDone, d.methodologyFailed))
	}
	handle("GET /desk/rankings/new", editor(d.serveNewRanking))
	handle("POST /desk/rankings", methodology())
	handle("GET /desk/rankings/{slug}/methodology", editor(d.serveChangeMethodology))
	handle("POST /desk/rankings/{slug}/methodology", methodology())
	handle(proposal+"methodology", methodology())
	// Importing a ranking file or CSV: the upload, its dry run and
	// progress, and the confirmation that opens its proposals.
	handle("GET "+paths.Import, editor(d.serveImport))
	handle("POST "+paths.Import, editor(d.importUpload))
	handle("GET "+paths.Import+"/{id}", editor(d.serveImportJob))
	handle("POST "+paths.Import+"/{id}/confirm", editor(d.importConfirm))
	// The workflow around review: reviewers requested, comments and
	// declared conflicts of interest.
	handle(proposal+"reviewers", proposalForm(d, reviewersAction, formNamed[command.ReviewersInput]("reviewers")))
	handle(proposal+"comments", proposalForm(d, command.AddComment, commentFormName))
	handle(proposal+"comments/resolve", proposalForm(d, command.ResolveComment, formNamed[command.ResolveCommentInput]("resolve")))
	handle("POST /desk/conflicts", command.Form(d.write, command.DeclareConflict, conflictDeclared, d.conflictFailed))

	// The review queue: many proposals at once, each vote its own command.
	handle("GET "+paths.Review, role(domain.RoleReviewer, http.HandlerFunc(d.serveReview)))
	handle("POST "+paths.Review, command.Form(d.write, command.CastVotes, d.reviewVoted, d.reviewFailed))

	// Readers' reports: the editors' triage queue.
	d.reportRoutes(handle, editor, role)
	// Vendors' statements about an entry, and the editors' hiding.
	d.replyRoutes(handle, user)

	// The signed-in user's inbox, its private feed, and the header's live
	// unread count.
	handle("GET "+paths.Inbox, user(d.serveInbox))
	handle("POST "+paths.Inbox+"/read", command.Form(d.write, command.MarkInboxRead, inboxRead, inboxFailed[command.InboxReadInput](d, "read")))
	handle("POST "+paths.Inbox+"/feed", user(d.feedTokenCreate))
	handle("POST "+paths.Inbox+"/feed/revoke", command.Form(d.write, command.RevokeFeedToken, feedTokenRevoked, inboxFailed[command.FeedTokenInput](d, "feed")))
	handle("GET "+paths.InboxEvents, user(d.serveEvents))

	// Search: entries, proposals and evidence.
	handle("GET "+paths.Search, user(d.serveSearch))

	// An entry as the desk sees it.
	handle("GET /desk/entries/{ranking}/{entry}", user(d.serveEntry))

	// Publishing the next edition of a ranking.
	handle("GET "+paths.Publish, role(domain.RolePublisher, http.HandlerFunc(d.servePublish)))
	handle("POST "+paths.Publish, role(domain.RolePublisher, command.Form(d.write, publishAction, d.published, d.publishFailed)))
	handle("GET "+paths.Publish+"/editions/{slug}/{n}", role(domain.RolePublisher, http.HandlerFunc(d.servePending)))
	handle("POST "+paths.Publish+"/schedule", role(domain.RolePublisher, command.Form(d.write, scheduleAction, scheduled, d.scheduleFailed)))
	handle("POST "+paths.Publish+"/schedule/cancel", role(domain.RolePublisher, command.Form(d.write, command.CancelSchedule, scheduleCanceled, nil)))
	handle("POST "+paths.Publish+"/previews", role(domain.RolePublisher, http.HandlerFunc(d.previewCreate)))
	handle("POST "+paths.Publish+"/previews/revoke", role(domain.RolePublisher, command.Form(d.write, command.RevokePreview, previewRevoked, d.previewRevokeFailed)))

	// The webhook delivery log, and the form asking a webhook to post an
	// edition again.
	handle("GET "+paths.Webhooks, role(domain.RolePublisher, http.HandlerFunc(d.serveWebhooks)))
	handle("POST "+paths.Webhooks+"/redeliver", role(domain.RolePublisher,
		command.Form(d.write, command.Redeliver, webhookRedelivered, d.redeliverFailed)))
	handle("POST "+paths.Webhooks+"/chat", role(domain.RolePublisher,
		command.Form(d.write, command.SetChatWebhook, chatWebhookSet, d.chatWebhookFailed)))

	// The audit trail, its verification, and its export: the page's
	// ?format= download and GET /api/v1/audit are the same handler, so the
	// API's read of the trail and the page's selection cannot drift apart.
	handle("GET "+paths.Audit, user(d.serveAudit))
	handle("POST "+paths.Audit+"/verify", user(d.serveVerify))
	handle("GET /api/v1/audit", user(d.serveAuditExport))

	// Users, for admins. Issuing a token here is refused for anyone but the
	// admin themself (the domain's rule, answered 403): tokens are issued by
	// their own user on the account page.
	handle("GET "+paths.Users, admin(http.HandlerFunc(d.serveUsers)))
	// Adding a user and resetting a password answer with the one-time
	// link the person chooses their password on (users_invite.go).
	handle("POST "+paths.Users, admin(http.HandlerFunc(d.userInvite)))
	handle("POST "+paths.Users+"/{name}/roles/grant", admin(command.Form(d.write, command.GrantRole,
		usersDone[command.RoleInput]("granted"), usersFailed[command.RoleInput](d, "roles"))))
	handle("POST "+paths.Users+"/{name}/roles/revoke", admin(command.Form(d.write, command.RevokeRole,
		usersDone[command.RoleInput]("revoked"), usersFailed[command.RoleInput](d, "roles"))))
	handle("POST "+paths.Users+"/{name}/password", admin(http.HandlerFunc(d.userReset)))
	handle("POST "+paths.Users+"/{name}/invitation/revoke", admin(command.Form(d.write, command.RevokeInvitation,
		usersDone[command.InvitationRevokeInput]("invitation_revoked"), usersFailed[command.InvitationRevokeInput](d, "password"))))
	handle("POST "+paths.Users+"/{name}/tokens", admin(http.HandlerFunc(d.userTokenIssue)))
	handle("POST "+paths.Users+"/{name}/tokens/{token}/revoke", admin(command.Form(d.write, command.RevokeToken,
		usersDone[command.TokenRevokeInput]("token_revoked"), usersFailed[command.TokenRevokeInput](d, "tokens"))))

	// A one-time link's page, where the person chooses their password: no
	// sign-in, and no read model needed.
	mux.Handle("GET "+paths.Welcome, http.HandlerFunc(d.serveWelcome))
	mux.Handle("POST "+paths.Welcome, http.HandlerFunc(d.acceptWelcome))

	// The signed-in user's own account: password and API tokens.
	handle("GET "+paths.Account, user(d.serveAccount))
	handle("POST "+paths.Account+"/password", command.Form(d.write, command.ChangePassword(d.sessions),
		accountDone[command.PasswordChangeInput]("password"), accountFailed[command.PasswordChangeInput](d, "password")))
	handle("POST "+paths.Account+"/tokens", user(d.accountTokenIssue))
	handle("POST "+paths.Account+"/tokens/{token}/revoke", command.Form(d.write, command.RevokeToken,
		accountDone[command.TokenRevokeInput]("token_revoked"), accountFailed[command.TokenRevokeInput](d, "tokens")))
}

// ProposalPath is a proposal's page on the desk.
func ProposalPath(id string) string { return "/desk/proposals/" + id }

// RenderProposal shows the proposal in the request's path with status,
// and st in the form named form ("" for none): a failed submit.
func (d *Desk) RenderProposal(w http.ResponseWriter, r *http.Request, status int, form string, st ui.FormState) {
	v, err := d.buildProposalPage(r, form, st)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	ui.Render(w, r, status, proposalPage(v))
}
