package site

import (
	"context"
	"net/http"
	"strconv"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/api/wire"
	"github.com/crossrank/crossrank/web/ui"
)

type apiEditionItem struct {
	Number       int      `json:"number"`
	PublishedAt  string   `json:"published_at"`
	Publisher    string   `json:"publisher"`
	Note         string   `json:"note,omitempty"`
	SnapshotHash string   `json:"snapshot_hash"`
	Proposals    []string `json:"proposals"`
	Changes      int      `json:"changes"`
}

type apiEditionList struct {
	Ranking  string           `json:"ranking"`
	Editions []apiEditionItem `json:"editions"` // newest first
}

func apiEditionsOf(ctx context.Context, read *projections.Store, slug string) (apiEditionList, error) {
	if _, _, err := read.Definition(ctx, slug); err != nil {
		return apiEditionList{}, err
	}
	list, err := read.Editions(ctx, slug, 1000)
	out := apiEditionList{Ranking: slug, Editions: []apiEditionItem{}}
	for _, e := range list {
		out.Editions = append(out.Editions, apiEditionItem{Number: e.Number, PublishedAt: e.PublishedAt, Publisher: e.Publisher,
			Note: e.Note, SnapshotHash: e.SnapshotHash, Proposals: nonNil(e.Proposals), Changes: e.Changes})
	}
	return out, err
}

type apiEdition struct {
	Ranking string `json:"ranking"`
	apiEditionItem
	PreviewHash string        `json:"preview_hash"`
	AuditHead   string        `json:"audit_head"`
	NewEntries  []string      `json:"new_entries"`
	ChangeLog   []wire.Change `json:"change_log"`
	Moves       []wire.Move   `json:"moves"` // overall, by rank after the edition
}

func apiEditionOf(ctx context.Context, read *projections.Store, slug string, n int) (apiEdition, error) {
	d, err := read.Edition(ctx, slug, n)
	if err != nil {
		return apiEdition{}, err
	}
	out := apiEdition{Ranking: slug, apiEditionItem: apiEditionItem{Number: d.Number, PublishedAt: d.PublishedAt,
		Publisher: d.Publisher, Note: d.Note, SnapshotHash: d.SnapshotHash, Proposals: nonNil(d.Proposals), Changes: len(d.Changes)},
		PreviewHash: d.PreviewHash, AuditHead: d.AuditHead, NewEntries: []string{}, ChangeLog: []wire.Change{}, Moves: []wire.Move{}}
	for _, c := range d.Changes {
		ac := wire.Change{Proposal: c.Proposal, Entry: c.Entry, Target: c.Target, FromScore: c.FromScore, ToScore: c.ToScore,
			FromTags: c.FromTags, ToTags: c.ToTags, Evidence: []string{}}
		for _, e := range c.Evidence {
			ac.Evidence = append(ac.Evidence, e.ID)
		}
		out.ChangeLog = append(out.ChangeLog, ac)
	}
	for _, m := range d.Moves {
		out.Moves = append(out.Moves, wire.Move{Entry: m.Entry, BeforeRank: m.Before, AfterRank: m.After,
			BeforeTotal: m.BeforeTotal, AfterTotal: m.AfterTotal})
		if m.Before == nil {
			out.NewEntries = append(out.NewEntries, m.Entry)
		}
	}
	return out, nil
}

func (s *Site) apiEdition(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		ui.Fail(w, r, domain.ErrNotFound)
		return
	}
	s.serveAPI(w, r, slug, nil, false, func(ctx context.Context) (any, error) { return apiEditionOf(ctx, s.read, slug, n) })
}
