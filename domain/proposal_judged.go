package domain

import (
	"context"
	"errors"

	"github.com/crossrank/crossrank/events"
)

// Judging is the ranking a proposal is judged by, and why.
type Judging struct {
	// Ranking holds the criteria, attributes and quorum policy the
	// proposal is checked and counted against.
	Ranking *Ranking
	// InReview is the new-ranking proposal whose proposed methodology
	// Ranking is, while the ranking is not yet defined: an entry proposal
	// can only publish together with that definition. "" once the ranking
	// is defined, and for the new-ranking proposal itself.
	InReview string
}

// JudgingRanking is the ranking a proposal of ranking slug is judged by,
// given r, the ranking as defined (possibly a zero one), and dep, the
// new-ranking proposal the proposal depends on (or the proposal itself,
// when it defines the ranking; nil for none): the ranking as defined, or,
// while it is unpublished, the methodology dep proposes. ok is false when
// neither applies (r is returned as it is). The commands, the pages and
// the read models all judge through it, so a reviewer sees the quorum the
// vote will be counted against.
func JudgingRanking(r *Ranking, slug string, dep *Proposal) (_ *Ranking, ok bool) {
	if r.Exists() || dep == nil {
		return r, false
	}
	if !dep.IsMethodology() || !dep.NewRanking || dep.Ranking != slug || dep.Methodology == nil || !dep.Status.Open() {
		return r, false
	}
	return (&Ranking{}).withMethodology(slug, dep.Methodology.Methodology), true
}

// JudgedBy returns the ranking p is judged by (JudgingRanking). It never
// fails because the ranking is not defined: a proposal whose ranking is
// neither defined nor proposed by an open proposal is judged by an empty
// ranking under the default quorum, and can be read, not decided.
func (h *Handler) JudgedBy(ctx context.Context, p *Proposal) (Judging, error) {
	r, err := h.Ranking(ctx, p.Ranking)
	if err == nil {
		return Judging{Ranking: r}, nil
	}
	if !errors.Is(err, ErrRankingMissing) {
		return Judging{}, err
	}
	dep := p
	if !p.NewRanking {
		dep = nil
		if p.DependsOn != "" && events.ValidID(p.DependsOn) {
			d, err := h.Proposal(ctx, p.DependsOn)
			if err != nil && !errors.Is(err, ErrProposalMissing) {
				return Judging{}, err
			}
			dep = d
		}
	}
	if jr, ok := JudgingRanking(&Ranking{}, p.Ranking, dep); ok {
		j := Judging{Ranking: jr}
		if dep != p {
			j.InReview = dep.ID
		}
		return j, nil
	}
	return Judging{Ranking: &Ranking{Slug: p.Ranking, Quorum: DefaultQuorum}}, nil
}
