package web

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
)

// openInput opens a proposal for an entry, or for a new entry when
// new_entry is given. The command id is the proposal's id.
type openInput struct {
	withCommandID
	Ranking  string         `json:"ranking"`
	Entry    string         `json:"entry"`
	Title    string         `json:"title"`
	Summary  string         `json:"summary,omitempty"`
	NewEntry *newEntryInput `json:"new_entry,omitempty"`
}

// newEntryInput describes the entry a proposal creates.
type newEntryInput struct {
	Name        events.Text `json:"name"`
	Category    string      `json:"category"`
	Website     string      `json:"website,omitempty"`
	Description events.Text `json:"description"`
}

var openProposalAction = action[openInput]{
	name:    "proposal.open",
	created: true,
	path: func(r *http.Request, in *openInput) {
		if slug := r.PathValue("slug"); slug != "" {
			in.Ranking = slug
		}
	},
	form: func(f *httpx.Form, in *openInput) {
		in.Ranking, in.Entry, in.Title, in.Summary = f.Str("ranking"), f.Str("entry"), f.Str("title"), f.Str("summary")
		if f.Bool("new_entry") {
			in.NewEntry = &newEntryInput{
				Name:     events.Text{Zh: f.Str("name_zh"), En: f.Str("name_en")},
				Category: f.Str("category"), Website: f.Str("website"),
				Description: events.Text{Zh: f.Str("description_zh"), En: f.Str("description_en")},
			}
		}
	},
	run: (*Server).openProposal,
	resource: func(_ *Server, _ context.Context, _ *openInput, commandID string) (string, string) {
		return proposalResource(commandID)
	},
}

// openProposal opens the proposal; its id is the command id, so opening
// twice with the same id opens one proposal.
func (s *Server) openProposal(ctx context.Context, a domain.Actor, commandID string, in *openInput) (domain.Result, error) {
	c := domain.OpenProposal{CommandID: commandID, ID: commandID, Ranking: in.Ranking, Entry: in.Entry, Title: in.Title, Summary: in.Summary}
	if n := in.NewEntry; n != nil {
		c.NewEntry = &domain.NewEntry{Name: n.Name, Category: n.Category, Website: n.Website, Description: n.Description}
	}
	return s.cmd.OpenProposal(ctx, a, c)
}
