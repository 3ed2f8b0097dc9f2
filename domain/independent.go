package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"
)

// Tier is where an evidence item's claim comes from. The zero value ""
// means the editor did not say (every item added before tiers existed).
type Tier string

// The provenance tiers.
const (
	TierVendor     Tier = "vendor"      // the vendor's own claim about itself
	TierThirdParty Tier = "third_party" // a report by someone else
	TierOwn        Tier = "own"         // the editors' own measurement
)

// Tiers lists the tiers in the order forms offer them.
var Tiers = []Tier{TierVendor, TierThirdParty, TierOwn}

// Valid reports whether t is one of Tiers ("" is not: it is no tier).
func (t Tier) Valid() bool { return slices.Contains(Tiers, t) }

// Independent reports whether t is known not to come from the vendor. An
// item whose tier was not stated is not: an independent view must not
// count a claim nobody looked at as independent.
func (t Tier) Independent() bool { return t == TierThirdParty || t == TierOwn }

// ScoreBacking holds the tiers of the evidence behind each published score:
// entry slug → criterion → one tier per evidence item.
type ScoreBacking map[string]map[string][]Tier

// IndependentlyBacked reports whether the score of entry on criterion
// rests on at least one independent evidence item.
func (b ScoreBacking) IndependentlyBacked(entry, criterion string) bool {
	return slices.ContainsFunc(b[entry][criterion], Tier.Independent)
}

// IndependentEdition returns a copy of ed that keeps only the scores backed
// by independent evidence (b.IndependentlyBacked); every entry and its
// attributes stay, and a dropped score counts as missing (0), as it does
// in Standings. ed is not changed.
func IndependentEdition(ed *Edition, b ScoreBacking) *Edition {
	out := &Edition{Ranking: ed.Ranking, Number: ed.Number, Entries: make(map[string]*PublishedEntry, len(ed.Entries)),
		Last: ed.Last, Seq: ed.Seq}
	for slug, e := range ed.Entries {
		c := *e
		c.Scores = map[string]int{}
		for crit, v := range e.Scores {
			if b.IndependentlyBacked(slug, crit) {
				c.Scores[crit] = v
			}
		}
		c.Attributes = maps.Clone(e.Attributes)
		out.Entries[slug] = &c
	}
	return out
}

// IndependentBasis names the independent view in its snapshot.
const IndependentBasis = "independent_evidence"

// IndependentSnapshot is the canonical form of a ranking counted on
// independent evidence only: the snapshot of IndependentEdition under a
// basis name, so its hash never equals the published edition's even when
// every score is independently backed. Like a scenario it is computed, not
// published: an edition's SnapshotHash does not cover it.
type IndependentSnapshot struct {
	Basis    string   `json:"basis"` // always IndependentBasis
	Snapshot Snapshot `json:"snapshot"`
}

// BuildIndependentSnapshot computes the independent view of ed under r's
// weights (and its scenarios' orders), from the tiers in b.
func BuildIndependentSnapshot(r *Ranking, ed *Edition, b ScoreBacking) IndependentSnapshot {
	return IndependentSnapshot{Basis: IndependentBasis, Snapshot: BuildSnapshot(r, IndependentEdition(ed, b))}
}

// JSON returns the view's canonical bytes.
func (s IndependentSnapshot) JSON() []byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic("independent snapshot: " + err.Error()) // only slices, strings and ints: cannot fail
	}
	return b
}

// Hash returns the hex SHA-256 of the canonical bytes.
func (s IndependentSnapshot) Hash() string {
	sum := sha256.Sum256(s.JSON())
	return hex.EncodeToString(sum[:])
}
