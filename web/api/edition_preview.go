package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api/wire"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// EditionPreview is the next edition as the domain computes it for the
// chosen proposals: what the desk's publish page shows. Publishing those
// proposals takes PreviewHash back as "preview_hash".
type EditionPreview struct {
	Ranking      string        `json:"ranking"`
	Number       int           `json:"number"`    // the edition it would be
	Proposals    []string      `json:"proposals"` // sorted ids
	PreviewHash  string        `json:"preview_hash"`
	SnapshotHash string        `json:"snapshot_hash"`
	NewEntries   []string      `json:"new_entries"`
	Changes      []wire.Change `json:"changes"`
	Moves        []wire.Move   `json:"moves"` // overall, by rank after the edition
	// Methodology is what the edition does to the ranking's methodology,
	// when a chosen proposal changes (or defines) it.
	Methodology *MethodologyRelease `json:"methodology,omitempty"`
	// Size counts the lists whole; changes, moves and new_entries hold
	// page Page of Pages (?page=N, previewPageSize items each);
	// LargestMoves are the largest rank moves, on every page.
	Size         *PreviewSize `json:"size,omitempty"`
	LargestMoves []wire.Move  `json:"largest_moves,omitempty"`
	Page         int          `json:"page,omitempty"`
	Pages        int          `json:"pages,omitempty"`
}

// MethodologyRelease is the methodology an edition would publish: the
// proposal, the methodology whole, and what changes.
type MethodologyRelease struct {
	Proposal    string                     `json:"proposal"`
	Methodology events.Methodology         `json:"methodology"`
	Changes     []events.MethodologyChange `json:"changes"`
}

// PreviewInput is the body of POST /api/v1/rankings/{slug}/editions/preview.
// Proposals absent (or null) chooses every cross-validated proposal of the
// ranking the caller may publish (command.Ready), as a publish naming none
// does; an empty list chooses nothing and is refused.
type PreviewInput struct {
	Proposals []string `json:"proposals"`
}

// editionPreview answers POST /api/v1/rankings/{slug}/editions/preview.
// Only a publisher may publish, so only a publisher is shown the preview
// hash that publishing takes.
func editionPreview(d *command.Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !httpx.Actor(r.Context()).Has(domain.RolePublisher) {
			ui.Fail(w, r, domain.ErrRoleRequired)
			return
		}
		page, ok := previewPage(r)
		if !ok {
			ui.Fail(w, r, &httpx.BadField{Field: "page", Code: "field.page_number"})
			return
		}
		var in PreviewInput
		err := httpx.DecodeJSON(r, &in)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		slug := r.PathValue("slug")
		if in.Proposals == nil {
			if in.Proposals, err = command.Ready(d, r.Context(), httpx.Actor(r.Context()), slug); err != nil {
				ui.Fail(w, r, err)
				return
			}
		}
		pv, err := previewOf(r.Context(), d.Commands, slug, in.Proposals)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		httpx.WriteJSON(w, http.StatusOK, paged(pv, page))
	}
}

func previewOf(ctx context.Context, cmds *handler.Handler, ranking string, proposals []string) (EditionPreview, error) {
	if len(proposals) == 0 {
		return EditionPreview{}, domain.ErrNothingToPublish
	}
	pv, _, err := cmds.PreviewEdition(ctx, ranking, proposals)
	if err != nil {
		return EditionPreview{}, err
	}
	out := EditionPreview{Ranking: pv.Ranking, Number: pv.Number, Proposals: orEmpty(pv.Proposals),
		PreviewHash: pv.Hash, SnapshotHash: pv.SnapshotHash, NewEntries: []string{}, Changes: []wire.Change{}, Moves: []wire.Move{}}
	if m := pv.Methodology; m != nil {
		out.Methodology = &MethodologyRelease{Proposal: m.Proposal, Methodology: m.Methodology, Changes: orEmpty(m.Changes)}
	}
	for _, ne := range pv.NewEntries {
		out.NewEntries = append(out.NewEntries, ne.Slug)
	}
	for _, c := range pv.Changes {
		out.Changes = append(out.Changes, wire.ChangeOf(c))
	}
	type standing struct{ rank, total int }
	before := map[string]standing{}
	for _, e := range pv.Before.Entries {
		before[e.Slug] = standing{e.Rank, e.Total}
	}
	for _, e := range pv.After.Entries {
		m := wire.Move{Entry: e.Slug, AfterRank: e.Rank, AfterTotal: e.Total}
		if b, ok := before[e.Slug]; ok {
			m.BeforeRank, m.BeforeTotal = &b.rank, &b.total
		}
		out.Moves = append(out.Moves, m)
	}
	return out, nil
}

// publishWithPreview is command.Publish whose 409 for a changed preview
// carries the current preview as extension members of the problem, so the
// client can check it and publish with its hash without asking again.
//
// A publish that names no proposals (absent or null) publishes every ready
// one, as a preview naming none shows them, the way the desk's form
// publishes "all": never by omission alone, since the preview hash pins
// the set — without one it is refused (422, nothing chosen), and with one
// from a preview of another set, or made before a proposal became ready,
// it is refused (409) with the current preview. An edition of 10,000
// proposals is published without sending their ids back.
func publishWithPreview() command.Action[command.PublishInput] {
	act := command.Publish
	run := act.Run
	act.Run = func(d *command.Deps, ctx context.Context, a domain.Actor, commandID string, in *command.PublishInput) (handler.Result, error) {
		in.All = in.Proposals == nil && in.PreviewHash != ""
		res, err := run(d, ctx, a, commandID, in)
		if errors.Is(err, domain.ErrPreviewChanged) {
			chosen := in.Proposals
			if in.All {
				chosen, _ = command.Ready(d, ctx, a, in.Ranking) // no members if unreadable: the 409 stands
			}
			if pv, perr := previewOf(ctx, d.Commands, in.Ranking, chosen); perr == nil {
				err = &httpx.WithMembers{Err: err, Members: paged(pv, 1)}
			}
		}
		return res, err
	}
	return act
}
