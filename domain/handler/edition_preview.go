package handler

import (
	"context"
	"errors"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// PreviewEdition computes the next edition of ranking from the chosen proposals.
func (h *Handler) PreviewEdition(ctx context.Context, ranking string, proposals []string) (domain.EditionPreview, *domain.Ranking, error) {
	r, err := h.Ranking(ctx, ranking)
	if errors.Is(err, domain.ErrRankingMissing) && events.ValidID(ranking) {
		r, err = &domain.Ranking{}, nil // its first edition may define it
	}
	if err != nil {
		return domain.EditionPreview{}, nil, err
	}
	ed, err := h.Edition(ctx, ranking)
	if err != nil {
		return domain.EditionPreview{}, nil, err
	}
	chosen, entries, err := h.loadChosen(ctx, ranking, proposals)
	if err != nil {
		return domain.EditionPreview{}, nil, err
	}
	judged, err := h.rankingForQuorum(ctx, r, chosen...)
	if err != nil {
		return domain.EditionPreview{}, nil, err
	}
	pv, err := domain.Preview(judged, ed, chosen, entries)
	if err == nil {
		err = domain.JudgeQuorum(judged, ed, chosen)
	}
	if err == nil {
		h.previewed.remember(pv.Hash, pv.Pins)
	}
	return pv, r, err
}

func (h *Handler) loadChosen(ctx context.Context, ranking string, ids []string) ([]*domain.Proposal, map[string]*domain.Entry, error) {
	if err := h.preloadChosen(ctx, ranking, ids); err != nil {
		return nil, nil, err
	}
	chosen := make([]*domain.Proposal, len(ids))
	if err := h.proposals(ctx, ids, chosen); err != nil {
		return nil, nil, err
	}
	entries, err := h.newEntries(ctx, ranking, chosen)
	return chosen, entries, err
}

// proposals sets out[i] to the proposal ids[i], as Proposal does for
// each (readMany).
func (h *Handler) proposals(ctx context.Context, ids []string, out []*domain.Proposal) error {
	aggs := make([]events.Aggregate, len(ids))
	for i, id := range ids {
		aggs[i] = domain.ProposalID(id)
	}
	return readMany(ctx, h, aggs, out, func(i int) (*domain.Proposal, error) { return h.Proposal(ctx, ids[i]) })
}

// newEntries loads the Entry of every new-entry proposal of chosen.
func (h *Handler) newEntries(ctx context.Context, ranking string, chosen []*domain.Proposal) (map[string]*domain.Entry, error) {
	var slugs []string
	for _, p := range chosen {
		if p.NewEntry {
			slugs = append(slugs, p.Entry)
		}
	}
	loaded := make([]*domain.Entry, len(slugs))
	aggs := make([]events.Aggregate, len(slugs))
	for i, slug := range slugs {
		if events.ValidID(ranking) && domain.CheckSlug("entry", slug) == nil {
			aggs[i] = domain.EntryID(ranking, slug)
		} // else left invalid: Entry refuses it
	}
	if err := readMany(ctx, h, aggs, loaded, func(i int) (*domain.Entry, error) { return h.Entry(ctx, ranking, slugs[i]) }); err != nil {
		return nil, err
	}
	entries := make(map[string]*domain.Entry, len(slugs))
	for i, e := range loaded {
		entries[slugs[i]] = e
	}
	return entries, nil
}

// chosenIn returns the loaded chosen proposals, in ids' order, and the
// entries their new-entry proposals create. An entry that cannot be found
// is left out (the preview refuses with ErrEntryMissing); any other error
// (the store unavailable) is returned, not taken for a missing entry.
func (h *Handler) chosenIn(ctx context.Context, s states, ranking string, ids []string) ([]*domain.Proposal, map[string]*domain.Entry, error) {
	chosen := make([]*domain.Proposal, len(ids))
	for i, p := range ids {
		chosen[i] = s.proposal(p)
	}
	entries, err := h.newEntries(ctx, ranking, chosen)
	if errors.Is(err, domain.ErrEntryMissing) {
		return chosen, map[string]*domain.Entry{}, nil
	}
	return chosen, entries, err
}
