package web

import (
	"fmt"
	"net/http"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/desk"
	"github.com/crossrank/crossrank/web/notify"
	"github.com/crossrank/crossrank/web/ui"
)

// routes lists every route of the site, top to bottom. Patterns follow the
// Go 1.22 ServeMux rules; "/" is the catch-all 404/405, so the home page is
// "GET /{$}". Every route exists whatever the configuration: a page that
// needs the read models answers 503 on a server built without them (see
// needsRead), and /metrics answers 404 when it has its own address.
func (s *Server) routes() {
	handle := s.mux.Handle
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
	// each running the same action as its desk form, the signed-in
	// proposal reads, the edition preview and the methodology. The audit
	// export is the desk's (see desk.Routes).
	api.Routes(s.mux, s.commands, api.Reads{Models: s.read, Guard: read})
	// The import of a ranking file or CSV, the desk's import page's door.
	api.ImportRoutes(s.mux, s.commands, s.imports, s.read)
	// The users (admins) and the caller's own account: the desk's users
	// and account pages' door.
	api.UserRoutes(s.mux, s.commands, api.Accounts{Sessions: s.auth, Read: s.read, Guard: read, PublicURL: s.publicURL})

	// Readers' reports: the intake anyone may post to, and the editors'
	// triage.
	api.ReportRoutes(s.mux, s.commands, s.read, read)
	handle("POST /r/{slug}/e/{entry}/reports", command.ReportForm(s.commands))

	// Embargoed previews: a publisher's writes and list, and the link's
	// page, which people without accounts open (never cached, never
	// linked from the public site).
	api.PreviewRoutes(s.mux, s.commands, s.read, read, s.publicURL)
	s.site.PreviewRoute(s.mux, read, s.commands.Commands)
	// Vendors' statements about their entries, and the editors' hiding.
	api.ReplyRoutes(s.mux, s.commands)

	// The desk: dashboard, proposals, entries, publishing, the audit
	// trail (and its export, GET /api/v1/audit), users and the account,
	// with the forms each page posts.
	s.desk.Routes(s.mux, desk.Guards{User: s.auth.RequireUser, Role: s.auth.RequireRole, Read: read})

	// Mail: the desk's mail settings and their JSON door, and the
	// confirmation and one-click unsubscribe links mails carry.
	notify.Routes(s.mux, s.mail, notify.Guards{User: s.auth.RequireUser, Role: s.auth.RequireRole})

	// Anything else: 404, or 405 with Allow.
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
