package web

import (
	"net/http"

	"github.com/crossrank/crossrank/domain"
)

// deskAdminRoutes registers the desk's publishing, audit trail, users,
// account and desk entry pages. Without read models (a server built for API
// tests) there is nothing to show, and the routes stay unregistered.
func (s *Server) deskAdminRoutes() {
	if s.read == nil {
		return
	}
	s.publishRoutes()
	s.auditRoutes()
	s.userRoutes()
	s.accountRoutes()
	s.route("GET /desk/entries/{ranking}/{entry}", s.requireUser(http.HandlerFunc(s.deskEntryPage)))
}

// publishRoutes: the publish page shows the next edition of each ranking;
// its form publishes through the same action as the JSON API.
func (s *Server) publishRoutes() {
	s.route("GET "+pathPublish, s.requireRole(domain.RolePublisher, http.HandlerFunc(s.publishPage)))
	s.route("POST "+pathPublish, s.requireRole(domain.RolePublisher,
		formCommand(s, publishAction, s.published, s.publishFailed)))
}

// publishPage shows, per ranking, the cross-validated proposals and the
// preview of the edition they make. ?ranking=<slug>&p=<id>&p=<id> previews
// a chosen subset of one ranking; every other ranking previews all.
func (s *Server) publishPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v, err := s.publishView(r, publishChoice{Ranking: q.Get("ranking"), Proposals: q["p"]}, formState{})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, publishPageTmpl(v))
}

// published sends the publisher to the public page of the new edition.
func (s *Server) published(r *http.Request, in *publishInput, _ domain.Result) string {
	ed, err := s.cmd.Edition(r.Context(), in.Ranking)
	if err != nil || ed.Number == 0 {
		return pathPublish
	}
	return adminEditionURL(in.Ranking, ed.Number)
}

// publishFailed shows the page again with the message next to the
// ranking's form and a fresh preview of the same choice: after a 409 the
// publisher sees what changed and can publish the new preview.
func (s *Server) publishFailed(w http.ResponseWriter, r *http.Request, in *publishInput, st formState, status int) {
	v, err := s.publishView(r, publishChoice{Ranking: in.Ranking, Proposals: in.Proposals, Failed: true}, st)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, status, publishPageTmpl(v))
}
