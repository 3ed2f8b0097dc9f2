package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
)

// OpenInput opens a proposal for an entry, or for a new entry when
// new_entry is given. The command id is the proposal's id.
type OpenInput struct {
	WithCommandID
	Ranking  string         `json:"ranking"`
	Entry    string         `json:"entry"`
	Title    string         `json:"title"`
	Summary  string         `json:"summary,omitempty"`
	NewEntry *NewEntryInput `json:"new_entry,omitempty"`
}

// NewEntryInput describes the entry a proposal creates.
type NewEntryInput struct {
	Name        events.Text `json:"name"`
	Category    string      `json:"category"`
	Website     string      `json:"website,omitempty"`
	Description events.Text `json:"description"`
}

var OpenProposal = Action[OpenInput]{
	Name:    "proposal.open",
	Created: true,
	Path: func(r *http.Request, in *OpenInput) {
		if slug := r.PathValue("slug"); slug != "" {
			in.Ranking = slug
		}
	},
	Form: func(f *httpx.Form, in *OpenInput) {
		in.Ranking, in.Entry, in.Title, in.Summary = f.Str("ranking"), f.Str("entry"), f.Str("title"), f.Str("summary")
		if f.Bool("new_entry") {
			in.NewEntry = &NewEntryInput{
				Name:     events.Text{Zh: f.Str("name_zh"), En: f.Str("name_en")},
				Category: f.Str("category"), Website: f.Str("website"),
				Description: events.Text{Zh: f.Str("description_zh"), En: f.Str("description_en")},
			}
		}
	},
	Run: openProposal,
	Resource: func(_ *Deps, _ context.Context, _ *OpenInput, commandID string) (string, string) {
		return proposalResource(commandID)
	},
}

// openProposal opens the proposal; its id is the command id, so opening
// twice with the same id opens one proposal.
func openProposal(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *OpenInput) (handler.Result, error) {
	c := domain.OpenProposal{CommandID: commandID, ID: commandID, Ranking: in.Ranking, Entry: in.Entry, Title: in.Title, Summary: in.Summary}
	if n := in.NewEntry; n != nil {
		c.NewEntry = &domain.NewEntry{Name: n.Name, Category: n.Category, Website: n.Website, Description: n.Description}
	}
	return d.Commands.OpenProposal(ctx, a, c)
}
