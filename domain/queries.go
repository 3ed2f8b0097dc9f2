package domain

import (
	"context"
	"errors"
	"slices"
	"time"

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
func (h *Handler) Ranking(ctx context.Context, slug string) (*Ranking, error) {
	if !events.ValidID(slug) {
		return nil, ErrRankingMissing
	}
	s, err := h.read(ctx, RankingID(slug))
	if r, ok := s.(*Ranking); ok && err == nil {
		return r, nil
	}
	return nil, orErr(err, ErrRankingMissing)
}

// Edition returns a ranking's published state (number 0 before the first edition).
func (h *Handler) Edition(ctx context.Context, ranking string) (*Edition, error) {
	if !events.ValidID(ranking) {
		return nil, ErrRankingMissing
	}
	s, err := h.read(ctx, EditionID(ranking))
	if err != nil {
		return nil, err
	}
	if ed, ok := s.(*Edition); ok {
		return ed, nil
	}
	return &Edition{Ranking: ranking, Entries: map[string]*PublishedEntry{}}, nil
}

// Proposal returns a proposal's current state.
func (h *Handler) Proposal(ctx context.Context, id string) (*Proposal, error) {
	if !events.ValidID(id) {
		return nil, ErrProposalMissing
	}
	s, err := h.read(ctx, ProposalID(id))
	if p, ok := s.(*Proposal); ok && err == nil {
		return p, nil
	}
	return nil, orErr(err, ErrProposalMissing)
}

// Entry returns a registered entry.
func (h *Handler) Entry(ctx context.Context, ranking, slug string) (*Entry, error) {
	if !events.ValidID(ranking) || CheckSlug("entry", slug) != nil {
		return nil, ErrEntryMissing
	}
	s, err := h.read(ctx, EntryID(ranking, slug))
	if e, ok := s.(*Entry); ok && err == nil {
		return e, nil
	}
	return nil, orErr(err, ErrEntryMissing)
}

// User returns a user's current state.
func (h *Handler) User(ctx context.Context, name string) (*User, error) {
	if CheckUsername(name) != nil {
		return nil, ErrUserMissing
	}
	s, err := h.read(ctx, UserID(name))
	if u, ok := s.(*User); ok && err == nil {
		return u, nil
	}
	return nil, orErr(err, ErrUserMissing)
}

func orErr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}

// PreviewEdition computes the next edition of ranking from the chosen proposals.
func (h *Handler) PreviewEdition(ctx context.Context, ranking string, proposals []string) (EditionPreview, *Ranking, error) {
	r, err := h.Ranking(ctx, ranking)
	if errors.Is(err, ErrRankingMissing) && events.ValidID(ranking) {
		r, err = &Ranking{}, nil // its first edition may define it
	}
	if err != nil {
		return EditionPreview{}, nil, err
	}
	ed, err := h.Edition(ctx, ranking)
	if err != nil {
		return EditionPreview{}, nil, err
	}
	chosen, entries, err := h.loadChosen(ctx, ranking, proposals)
	if err != nil {
		return EditionPreview{}, nil, err
	}
	judged, err := h.rankingForQuorum(ctx, r, chosen...)
	if err != nil {
		return EditionPreview{}, nil, err
	}
	pv, err := Preview(judged, ed, chosen, entries)
	if err == nil {
		err = judgeQuorum(judged, ed, chosen)
	}
	return pv, r, err
}

func (h *Handler) loadChosen(ctx context.Context, ranking string, ids []string) ([]*Proposal, map[string]*Entry, error) {
	if err := h.preloadChosen(ctx, ranking, ids); err != nil {
		return nil, nil, err
	}
	chosen := make([]*Proposal, len(ids))
	if err := h.proposals(ctx, ids, chosen); err != nil {
		return nil, nil, err
	}
	entries, err := h.newEntries(ctx, ranking, chosen)
	return chosen, entries, err
}

// proposals sets out[i] to the proposal ids[i], as Proposal does for
// each (readMany).
func (h *Handler) proposals(ctx context.Context, ids []string, out []*Proposal) error {
	aggs := make([]events.Aggregate, len(ids))
	for i, id := range ids {
		aggs[i] = ProposalID(id)
	}
	return readMany(ctx, h, aggs, out, func(i int) (*Proposal, error) { return h.Proposal(ctx, ids[i]) })
}

// newEntries loads the Entry of every new-entry proposal of chosen.
func (h *Handler) newEntries(ctx context.Context, ranking string, chosen []*Proposal) (map[string]*Entry, error) {
	var slugs []string
	for _, p := range chosen {
		if p.NewEntry {
			slugs = append(slugs, p.Entry)
		}
	}
	loaded := make([]*Entry, len(slugs))
	aggs := make([]events.Aggregate, len(slugs))
	for i, slug := range slugs {
		if events.ValidID(ranking) && CheckSlug("entry", slug) == nil {
			aggs[i] = EntryID(ranking, slug)
		} // else left invalid: Entry refuses it
	}
	if err := readMany(ctx, h, aggs, loaded, func(i int) (*Entry, error) { return h.Entry(ctx, ranking, slugs[i]) }); err != nil {
		return nil, err
	}
	entries := make(map[string]*Entry, len(slugs))
	for i, e := range loaded {
		entries[slugs[i]] = e
	}
	return entries, nil
}

// Publish releases the chosen proposals as the next edition. Those of
// c.Candidates whose baseline the edition changes return to review in the
// same atomic append.
func (h *Handler) Publish(ctx context.Context, a Actor, c PublishEdition) (Result, error) {
	if !events.ValidID(c.Ranking) {
		return Result{}, ErrRankingMissing
	}
	ids, err := choiceIDs(c.Proposals)
	if err != nil {
		return Result{}, err
	}
	// The ranking is written too: an edition that publishes a methodology
	// proposal appends the ranking's MethodologyPublished.
	writes := []events.Aggregate{EditionID(c.Ranking), RankingID(c.Ranking)}
	var reads []events.Aggregate
	for _, p := range ids {
		writes = append(writes, ProposalID(p))
	}
	var others []string
	for _, p := range c.Candidates {
		if events.ValidID(p) && !slices.Contains(ids, p) {
			others = append(others, p)
			writes = append(writes, ProposalID(p))
		}
	}
	// New entries are read after the chosen proposals are loaded.
	if err := h.preloadChosen(ctx, c.Ranking, append(slices.Clone(ids), others...)); err != nil {
		return Result{}, err
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: writes, reads: reads,
		decide: func(s states) ([]Change, error) {
			chosen, entries, err := h.chosenIn(ctx, s, c.Ranking, ids)
			if err != nil {
				return nil, err
			}
			var os []*Proposal
			for _, p := range others {
				os = append(os, s.proposal(p))
			}
			r, err := h.rankingForQuorum(ctx, s.ranking(c.Ranking), chosen...)
			if err != nil {
				return nil, err
			}
			return DecidePublish(r, s.edition(c.Ranking), chosen, entries, os, a, c)
		}})
}
