package projections

import (
	"errors"
	"fmt"
	"hash/maphash"

	"github.com/crossrank/crossrank/events"
)

// newStates is what a rebuild knows of its states table: the table was
// empty when it began, and only this Store writes it, so a row can exist
// only for an aggregate whose state this Store has loaded before (a row is
// written at commit for the states the transaction loaded and changed).
// For any other aggregate the projector skips the SELECT, which during a
// rebuild is a wait for the pipeline to drain: on the 100k history every
// one of the ~8k state loads that missed the memo was of an aggregate the
// rebuild had not seen yet.
//
// It holds a 64-bit hash of each aggregate loaded, about 16 bytes an
// aggregate in the map: a collision only makes the projector look for a
// row that is not there, as it did before. The live projector starts from
// a model it did not write and has none.
type newStates struct {
	seed maphash.Seed
	seen map[uint64]struct{}
}

func newNewStates() *newStates {
	return &newStates{seed: maphash.MakeSeed(), seen: map[uint64]struct{}{}}
}

func (n *newStates) hash(a events.Aggregate) uint64 {
	var h maphash.Hash
	h.SetSeed(n.seed)
	h.WriteString(string(a.Kind))
	h.WriteByte(0)
	h.WriteString(a.ID)
	return h.Sum64()
}

// isNew reports whether no row can hold a's state: this Store never
// loaded it. Either way, a counts as loaded from now on.
func (n *newStates) isNew(a events.Aggregate) bool {
	k := n.hash(a)
	if _, ok := n.seen[k]; ok {
		return false
	}
	n.seen[k] = struct{}{}
	return true
}

// checkNewStates makes the projector look for the row anyway when it
// skips the lookup of a new aggregate's state, and fail if there is one.
// The package's tests set it.
var checkNewStates bool

// errNewStateFound is what a skipped lookup would have missed.
var errNewStateFound = errors.New("projections: the state of an aggregate new to this rebuild is in the states table")

// emptyStates reports whether w's states table has no row.
func emptyStates(w *wconn) (bool, error) {
	_, err := w.queryRow("SELECT 1 FROM states LIMIT 1")
	if errors.Is(err, errNoRow) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("projections: states table: %w", err)
	}
	return false, nil
}
