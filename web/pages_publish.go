package web

import (
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// publishPage shows, per ranking, the cross-validated proposals and the
// preview of the edition they make. ?ranking=<slug>&p=<id>&p=<id> previews
// a chosen subset of one ranking; every other ranking previews all.
func (s *Server) publishPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v, err := s.publishView(r, publishChoice{Ranking: q.Get("ranking"), Proposals: q["p"]}, ui.FormState{})
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	ui.Render(w, r, http.StatusOK, publishPageTmpl(v))
}

// published sends the publisher to the public page of the new edition.
func (s *Server) published(r *http.Request, in *command.PublishInput, _ domain.Result) string {
	ed, err := s.cmd.Edition(r.Context(), in.Ranking)
	if err != nil || ed.Number == 0 {
		return paths.Publish
	}
	return adminEditionURL(in.Ranking, ed.Number)
}

// publishFailed shows the page again with the message next to the
// ranking's form and a fresh preview of the same choice: after a 409 the
// publisher sees what changed and can publish the new preview.
func (s *Server) publishFailed(w http.ResponseWriter, r *http.Request, in *command.PublishInput, st ui.FormState, status int) {
	v, err := s.publishView(r, publishChoice{Ranking: in.Ranking, Proposals: in.Proposals, Failed: true}, st)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	ui.Render(w, r, status, publishPageTmpl(v))
}
