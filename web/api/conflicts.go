package api

import (
	"net/http"

	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// Conflict is a reviewer's declared conflict of interest: public, as
// review sites' disclosure rules require.
type Conflict struct {
	User   string `json:"user"`
	Entry  string `json:"entry,omitempty"` // absent: the whole ranking
	Reason string `json:"reason"`
	At     string `json:"at"`
}

// ConflictList is GET /api/v1/rankings/{slug}/conflicts.
type ConflictList struct {
	Ranking   string     `json:"ranking"`
	Conflicts []Conflict `json:"conflicts"`
}

// conflicts answers GET /api/v1/rankings/{slug}/conflicts, a public read:
// the reviewers who declared conflicts, in the order they declared them.
func conflicts(read ReadModels) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		slug := r.PathValue("slug")
		if _, _, err := read.Definition(r.Context(), slug); err != nil {
			ui.Fail(w, r, err)
			return
		}
		rows, err := read.Conflicts(r.Context(), slug)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		out := ConflictList{Ranking: slug, Conflicts: []Conflict{}}
		for _, c := range rows {
			out.Conflicts = append(out.Conflicts, Conflict{User: c.User, Entry: c.Entry, Reason: c.Reason, At: c.At})
		}
		httpx.WriteJSON(w, http.StatusOK, out)
	}
}
