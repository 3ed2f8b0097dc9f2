package rankfile

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
)

// ErrUnpublished refuses to export a ranking with no published edition.
var ErrUnpublished = errors.New("ranking file: the ranking has no published edition")

// Export returns ranking slug's current published edition as a ranking
// file: its methodology, every published entry with its published scores
// and attributes, and the evidence each of those values was published with.
//
// It reads the event store through the domain, not a read model: the
// edition events name, for every published value, the proposal and
// evidence ids behind it, and that proposal holds the evidence items. So
// an export right after a publish never lags behind it.
func Export(ctx context.Context, h *handler.Handler, slug string) (*File, error) {
	r, err := h.Ranking(ctx, slug)
	if err != nil {
		return nil, err
	}
	ed, err := h.Edition(ctx, slug)
	if err != nil {
		return nil, err
	}
	if ed.Number == 0 {
		return nil, ErrUnpublished
	}
	history, err := h.EditionHistory(ctx, slug)
	if err != nil {
		return nil, err
	}
	// The latest change of each value is the one it is published with.
	source := map[[2]string]events.AppliedChange{}
	for _, e := range history {
		for _, c := range e.Changes {
			source[[2]string{c.Entry, c.Target}] = c
		}
	}
	x := exporter{ctx: ctx, h: h, proposals: map[string]*domain.Proposal{}}
	f := &File{Format: Format, Slug: slug, Methodology: r.Methodology(), Edition: ed.Number,
		SnapshotHash: ed.Last.SnapshotHash}
	for _, s := range ed.EntrySlugs() {
		e, err := x.entry(r, ed.Entries[s], source)
		if err != nil {
			return nil, fmt.Errorf("export %s: %w", s, err)
		}
		f.Entries = append(f.Entries, e)
	}
	return f, nil
}

type exporter struct {
	ctx       context.Context
	h         *handler.Handler
	proposals map[string]*domain.Proposal
}

func (x *exporter) proposal(id string) (*domain.Proposal, error) {
	if p, ok := x.proposals[id]; ok {
		return p, nil
	}
	p, err := x.h.Proposal(x.ctx, id)
	if err != nil {
		return nil, err
	}
	x.proposals[id] = p
	return p, nil
}

// entry exports one published entry. Its evidence is listed by proposal
// (in the order their values first cite them) and within a proposal in the
// order it was added, and keyed by place ("e1", "e2"…): importing the file
// gives the items those same ids, so a re-imported ranking exports as the
// same file.
func (x *exporter) entry(r *domain.Ranking, pe *domain.PublishedEntry, source map[[2]string]events.AppliedChange) (Entry, error) {
	out := Entry{Slug: pe.Slug, Name: pe.Name, Category: pe.Category, Website: pe.Website}
	if e, err := x.h.Entry(x.ctx, r.Slug, pe.Slug); err == nil {
		out.Description = e.Description
	} else if !errors.Is(err, domain.ErrEntryMissing) {
		return Entry{}, err
	}
	type item struct {
		proposal, at int // the proposal's place among the entry's, the item's in the proposal
		ref          string
		ev           domain.Evidence
	}
	var order []string // proposals in the order their values appear
	items := map[string]item{}
	cite := func(c events.AppliedChange) ([]string, *domain.Proposal, error) {
		p, err := x.proposal(c.Proposal)
		if err != nil {
			return nil, nil, err
		}
		n := slices.Index(order, c.Proposal)
		if n < 0 {
			order, n = append(order, c.Proposal), len(order)
		}
		var refs []string
		for _, id := range c.Evidence {
			ref := c.Proposal + "/" + id
			if _, ok := items[ref]; !ok {
				at := slices.IndexFunc(p.Evidence, func(e domain.Evidence) bool { return e.EvidenceID == id })
				if at < 0 {
					return nil, nil, fmt.Errorf("proposal %s: %w: %s", c.Proposal, domain.ErrUnknownEvidence, id)
				}
				items[ref] = item{proposal: n, at: at, ref: ref, ev: p.Evidence[at]}
			}
			refs = append(refs, ref)
		}
		return refs, p, nil
	}
	for _, c := range r.Criteria {
		v, ok := pe.Scores[c.Slug]
		if !ok {
			continue
		}
		s := Score{Criterion: c.Slug, Value: v, Evidence: []string{}}
		if ch, ok := source[[2]string{pe.Slug, "score:" + c.Slug}]; ok {
			cited, p, err := cite(ch)
			if err != nil {
				return Entry{}, err
			}
			s.Evidence, s.Rationale = cited, domain.TextField(p.Scores[c.Slug].Rationale)
		}
		out.Scores = append(out.Scores, s)
	}
	for _, k := range slices.Sorted(maps.Keys(pe.Attributes)) {
		a := Attribute{Key: k, Tags: slices.Clone(pe.Attributes[k]), Evidence: []string{}}
		if ch, ok := source[[2]string{pe.Slug, "attr:" + k}]; ok {
			cited, p, err := cite(ch)
			if err != nil {
				return Entry{}, err
			}
			a.Evidence, a.Rationale = cited, domain.TextField(p.Attributes[k].Rationale)
		}
		out.Attributes = append(out.Attributes, a)
	}
	sorted := slices.SortedFunc(maps.Values(items), func(a, b item) int {
		if a.proposal != b.proposal {
			return a.proposal - b.proposal
		}
		return a.at - b.at
	})
	key := map[string]string{}
	for i, it := range sorted {
		ev := it.ev
		key[it.ref] = fmt.Sprintf("e%d", i+1)
		out.Evidence = append(out.Evidence, Evidence{Key: key[it.ref], Claim: domain.TextField(ev.Claim), SourceURL: ev.SourceURL,
			SourceName: ev.SourceName, Section: ev.Section, Excerpt: ev.Excerpt, ObservedOn: ev.ObservedOn,
			ValidForDays: ev.ValidForDays, Tier: ev.Tier})
	}
	for i := range out.Scores {
		for j, ref := range out.Scores[i].Evidence {
			out.Scores[i].Evidence[j] = key[ref]
		}
	}
	for i := range out.Attributes {
		for j, ref := range out.Attributes[i].Evidence {
			out.Attributes[i].Evidence[j] = key[ref]
		}
	}
	return out, nil
}
