package projections

import (
	"context"
	"strings"

	"github.com/crossrank/crossrank/domain"
)

// ScoreBacking returns the provenance tiers of the evidence behind every
// published score of ranking slug: published_evidence links each score
// target to the evidence items of the proposal that published it.
func (s *Store) ScoreBacking(ctx context.Context, slug string) (domain.ScoreBacking, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT pe.entry, pe.target, e.tier FROM published_evidence pe
		JOIN evidence e ON e.proposal=pe.proposal AND e.evidence_id=pe.evidence_id
		WHERE pe.ranking=? AND pe.target LIKE 'score:%'
		ORDER BY pe.entry, pe.target, pe.proposal, length(pe.evidence_id), pe.evidence_id`, slug)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := domain.ScoreBacking{}
	for rows.Next() {
		var entry, target string
		var tier domain.Tier
		if err := rows.Scan(&entry, &target, &tier); err != nil {
			return nil, err
		}
		crit := strings.TrimPrefix(target, "score:")
		if out[entry] == nil {
			out[entry] = map[string][]domain.Tier{}
		}
		out[entry][crit] = append(out[entry][crit], tier)
	}
	return out, rows.Err()
}

// IndependentView is a published ranking counted on independent evidence
// only (see domain.IndependentEdition), under a scenario and needs.
type IndependentView struct {
	StandingView
	Hash string // the hash of its domain.IndependentSnapshot
}

// IndependentStanding is Standing over only the scores that independent
// evidence backs, with the hash of the view's canonical snapshot. Rows
// carry no rank moves: editions record moves of the published order only.
//
// It reads in several queries; an edition projected between them would
// mix two editions under one hash, so it reads again until the edition
// number it started with is still the latest.
func (s *Store) IndependentStanding(ctx context.Context, slug, scenario string, needs map[string]string) (IndependentView, error) {
	for {
		v, err := s.independentStanding(ctx, slug, scenario, needs)
		if err != nil {
			return v, err
		}
		_, edition, err := s.Definition(ctx, slug)
		if err != nil || edition == v.Edition {
			return v, err
		}
	}
}

func (s *Store) independentStanding(ctx context.Context, slug, scenario string, needs map[string]string) (IndependentView, error) {
	r, edition, err := s.Definition(ctx, slug)
	if err != nil {
		return IndependentView{}, err
	}
	v := IndependentView{StandingView: StandingView{Ranking: r, Edition: edition, Weights: r.Weights()}}
	if sc, ok := r.Scenario(scenario); ok {
		v.Scenario, v.Weights = sc.Slug, sc.Weights
	}
	entries, rows, err := s.published(ctx, slug)
	if err != nil {
		return v, err
	}
	backing, err := s.ScoreBacking(ctx, slug)
	if err != nil {
		return v, err
	}
	ed := &domain.Edition{Ranking: slug, Number: edition, Entries: entries}
	v.Hash = domain.BuildIndependentSnapshot(r, ed, backing).Hash()
	kept := domain.IndependentEdition(ed, backing).Entries
	for _, st := range domain.Standings(kept, v.Weights) {
		e := kept[st.Entry]
		row := rows[st.Entry]
		row.Total, row.Rank, row.CategoryRank = st.Total, st.Rank, st.CategoryRank
		row.Scores, row.Attributes = e.Scores, e.Attributes
		row.Excluded = domain.Meets(e.Attributes, r.Filters, needs)
		v.Rows = append(v.Rows, row)
	}
	return v, nil
}
