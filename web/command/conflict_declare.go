package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// ConflictInput declares the caller's conflict of interest with an entry
// of a ranking, or with the whole ranking (no entry). user, when given,
// must be the caller: nobody declares for someone else.
type ConflictInput struct {
	WithCommandID
	Ranking string `json:"-"`
	Entry   string `json:"-"`
	User    string `json:"user,omitempty"`
	Reason  string `json:"reason"`
}

var DeclareConflict = Action[ConflictInput]{
	Name:    "ranking.declare_conflict",
	Created: true,
	Path: func(r *http.Request, in *ConflictInput) {
		in.Ranking = rankingPath(r, in.Ranking)
		if e := r.PathValue("entry"); e != "" {
			in.Entry = e
		}
	},
	Form: func(f *httpx.Form, in *ConflictInput) {
		in.Ranking, in.Entry, in.Reason = f.Str("ranking"), f.Str("entry"), f.Str("reason")
	},
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ConflictInput) (handler.Result, error) {
		return d.Commands.DeclareConflict(ctx, a, domain.DeclareConflict{CommandID: commandID, Ranking: in.Ranking,
			Entry: in.Entry, Reason: in.Reason, User: in.User})
	},
	Resource: func(_ *Deps, _ context.Context, in *ConflictInput, _ string) (string, string) {
		return in.Ranking, "/api/v1/rankings/" + in.Ranking + "/conflicts"
	},
}
