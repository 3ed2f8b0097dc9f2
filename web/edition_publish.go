package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
)

// publishInput releases chosen cross-validated proposals as the next
// edition. preview_hash is the hash of the preview the publisher saw: if
// anything changed since, the edition is refused (409).
type publishInput struct {
	withCommandID
	Ranking     string   `json:"-"`
	Proposals   []string `json:"proposals"`
	PreviewHash string   `json:"preview_hash"`
	Note        string   `json:"note,omitempty"`
}

var publishAction = action[publishInput]{
	name:    "edition.publish",
	created: true,
	path: func(r *http.Request, in *publishInput) {
		if slug := r.PathValue("slug"); slug != "" {
			in.Ranking = slug
		}
	},
	form: func(f *httpx.Form, in *publishInput) {
		in.Ranking, in.Proposals = f.Str("ranking"), f.Strs("proposals")
		in.PreviewHash, in.Note = f.Str("preview_hash"), f.Str("note")
	},
	run: (*Server).publishEdition,
	resource: func(s *Server, ctx context.Context, in *publishInput, _ string) (string, string) {
		ed, err := s.cmd.Edition(ctx, in.Ranking)
		if err != nil || ed.Number == 0 {
			return in.Ranking, "/api/v1/rankings/" + in.Ranking + "/editions"
		}
		n := strconv.Itoa(ed.Number)
		return n, "/api/v1/rankings/" + in.Ranking + "/editions/" + n
	},
}

// publishEdition publishes with the audit head and the other
// cross-validated proposals from the read models (whose baselines the
// edition may change), when the server has them.
func (s *Server) publishEdition(ctx context.Context, a domain.Actor, commandID string, in *publishInput) (domain.Result, error) {
	c := domain.PublishEdition{CommandID: commandID, Ranking: in.Ranking, Proposals: in.Proposals,
		PreviewHash: in.PreviewHash, Note: in.Note}
	if s.publish != nil && a.Has(domain.RolePublisher) {
		var err error
		if c.AuditHead, c.AuditSeq, err = s.publish.AuditHead(ctx); err != nil {
			return domain.Result{}, fmt.Errorf("audit head: %w", err)
		}
		if c.Candidates, err = s.publish.CrossValidated(ctx, in.Ranking); err != nil {
			return domain.Result{}, fmt.Errorf("cross-validated proposals: %w", err)
		}
	}
	return s.cmd.Publish(ctx, a, c)
}
