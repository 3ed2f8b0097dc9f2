// Package desk serves the editorial desk's pages: the dashboard, proposals
// and their impact, new proposals, entries, publishing, the audit trail,
// users and the signed-in user's account. Each page's view model sits
// beside its template. The forms post through package web's command path,
// which renders a failed form with the Render methods here.
package desk

import (
	"log/slog"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// Config configures a Desk. Commands and Read are required; every other
// field has a working zero value, noted on the field.
type Config struct {
	// Commands loads proposals, editions and entries as the domain sees
	// them now: what a user may do, and the rank impact.
	Commands *domain.Handler
	// Read is the read models the pages query.
	Read *projections.Store
	// Verify checks the audit chain for the audit page; nil: the page says
	// it cannot verify.
	Verify Verifier
	// Log receives what a request log would not show; nil: slog.Default().
	Log *slog.Logger
}

// Desk serves the desk's pages.
type Desk struct {
	cmd    *domain.Handler
	read   *projections.Store
	verify Verifier
	log    *slog.Logger
}

// New returns the desk for cfg.
func New(cfg Config) *Desk {
	d := &Desk{cmd: cfg.Commands, read: cfg.Read, verify: cfg.Verify, log: cfg.Log}
	if d.log == nil {
		d.log = slog.Default()
	}
	return d
}

// Guards wrap the desk's pages: User lets any signed-in user in, Role
// only users holding the role, and Read answers 503 when the read models
// are missing.
type Guards struct {
	User func(http.Handler) http.Handler
	Role func(role string, h http.Handler) http.Handler
	Read func(http.Handler) http.Handler
}

// Routes lists the desk's pages, and the one API read the desk owns: the
// audit export. The forms they post are mounted by package web.
func (d *Desk) Routes(mux *http.ServeMux, g Guards) {
	handle := func(pattern string, h http.Handler) { mux.Handle(pattern, g.Read(h)) }
	user := func(h http.HandlerFunc) http.Handler { return g.User(h) }
	role := func(role string, h http.HandlerFunc) http.Handler { return g.Role(role, h) }

	handle("GET "+paths.Desk, user(d.serveDashboard))
	mux.Handle("GET /desk/{$}", http.RedirectHandler(paths.Desk, http.StatusMovedPermanently))
	handle("GET /desk/proposals/new", role(domain.RoleEditor, d.serveNewProposal))
	handle("GET /desk/proposals/{id}", user(d.serveProposal))
	handle("GET /desk/proposals/{id}/impact", user(d.serveImpact))
	handle("GET /desk/entries/{ranking}/{entry}", user(d.serveEntry))
	handle("GET "+paths.Publish, role(domain.RolePublisher, d.servePublish))
	handle("GET "+paths.Audit, user(d.serveAudit))
	handle("GET /api/v1/audit", user(d.serveAuditExport))
	handle("POST "+paths.Audit+"/verify", user(d.serveVerify))
	handle("GET "+paths.Users, role(domain.RoleAdmin, d.serveUsers))
	handle("GET "+paths.Account, user(d.serveAccount))
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
