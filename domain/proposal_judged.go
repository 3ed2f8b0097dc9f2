package domain

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
