package handler

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// staleReadAfter bounds a read's wait for the store when the cache holds
// the aggregate: a load takes well under a millisecond when the store is up.
const staleReadAfter = time.Second

// read returns the current state of one aggregate (refreshed from the store;
// while the store is unavailable, the state last seen, if any).
func (h *Handler) read(ctx context.Context, a events.Aggregate) (any, error) {
	if f := h.follow.Load(); f != nil && slices.Contains(followedKinds, a.Kind) {
		kept, ok := f.kept(a)
		if ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, staleReadAfter)
			defer cancel()
		}
		snaps, err := f.read(ctx, a.ID, []events.Aggregate{a})
		switch {
		case err == nil:
			return snaps[0].state, nil
		case ok && errors.Is(err, events.ErrUnavailable):
			return kept, nil // what the desk last saw, as below
		case !errors.Is(err, errNotFollowed):
			return nil, err
		}
	}
	e := h.cache.get(a)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.loaded {
		// With a state to fall back on, a store that does not answer within
		// staleReadAfter is treated as unavailable: a connection that has
		// not noticed the server is gone would otherwise hold the page for
		// the store's whole request timeout.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, staleReadAfter)
		defer cancel()
	}
	if err := h.refresh(ctx, e, a, true); err != nil {
		if e.loaded && errors.Is(err, events.ErrUnavailable) {
			// The store is out of reach: the desk keeps showing what it
			// last saw (writes are refused until the store is back).
			return e.state, nil
		}
		return nil, err
	}
	return e.state, nil
}

// Ranking returns a ranking's current definition.
func (h *Handler) Ranking(ctx context.Context, slug string) (*domain.Ranking, error) {
	if !events.ValidID(slug) {
		return nil, domain.ErrRankingMissing
	}
	s, err := h.read(ctx, domain.RankingID(slug))
	if r, ok := s.(*domain.Ranking); ok && err == nil {
		return r, nil
	}
	return nil, orErr(err, domain.ErrRankingMissing)
}

// Edition returns a ranking's published state (number 0 before the first edition).
func (h *Handler) Edition(ctx context.Context, ranking string) (*domain.Edition, error) {
	if !events.ValidID(ranking) {
		return nil, domain.ErrRankingMissing
	}
	s, err := h.read(ctx, domain.EditionID(ranking))
	if err != nil {
		return nil, err
	}
	if ed, ok := s.(*domain.Edition); ok {
		return ed, nil
	}
	return &domain.Edition{Ranking: ranking, Entries: map[string]*domain.PublishedEntry{}}, nil
}

// Proposal returns a proposal's current state.
func (h *Handler) Proposal(ctx context.Context, id string) (*domain.Proposal, error) {
	if !events.ValidID(id) {
		return nil, domain.ErrProposalMissing
	}
	s, err := h.read(ctx, domain.ProposalID(id))
	if p, ok := s.(*domain.Proposal); ok && err == nil {
		return p, nil
	}
	return nil, orErr(err, domain.ErrProposalMissing)
}

// Entry returns a registered entry.
func (h *Handler) Entry(ctx context.Context, ranking, slug string) (*domain.Entry, error) {
	if !events.ValidID(ranking) || domain.CheckSlug("entry", slug) != nil {
		return nil, domain.ErrEntryMissing
	}
	s, err := h.read(ctx, domain.EntryID(ranking, slug))
	if e, ok := s.(*domain.Entry); ok && err == nil {
		return e, nil
	}
	return nil, orErr(err, domain.ErrEntryMissing)
}

// User returns a user's current state.
func (h *Handler) User(ctx context.Context, name string) (*domain.User, error) {
	if domain.CheckUsername(name) != nil {
		return nil, domain.ErrUserMissing
	}
	s, err := h.read(ctx, domain.UserID(name))
	if u, ok := s.(*domain.User); ok && err == nil {
		return u, nil
	}
	return nil, orErr(err, domain.ErrUserMissing)
}

func orErr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}
