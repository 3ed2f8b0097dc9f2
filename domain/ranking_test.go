package domain_test

import (
	"testing"

	"github.com/crossrank/crossrank/domain"
)

// TestRankingIllustrative: the flag comes from the definition, and a
// definition without it (every one stored before it existed) is not
// illustrative.
func TestRankingIllustrative(t *testing.T) {
	for _, want := range []bool{false, true} {
		d := rankingDefinition()
		d.Illustrative = want
		w := newWorld(t, []given{{"pat", domain.RankingID(rk), &d}})
		if w.ranking.Illustrative != want {
			t.Errorf("defined with Illustrative %v, the ranking says %v", want, w.ranking.Illustrative)
		}
	}
}
