package projections

import (
	"context"
	"database/sql"
)

// VerifyPausing is Verify calling built once the replayed read model has
// reached the checkpoint first read from db, and snapshot once the read
// transaction on db has begun: a test appends events there.
func VerifyPausing(ctx context.Context, src Replayer, db *sql.DB, built, snapshot func()) (VerifyReport, error) {
	return verify(ctx, src, db, verifyHooks{built: built, snapshot: snapshot})
}

// Every rebuild in the package's tests looks for the row of each state it
// skips loading as new, and fails if there is one.
func init() { checkNewStates = true }

// SmallTransactions makes rebuilds commit every 64 events (in batches of
// 16) and keep at most 8 states between transactions, so that the tests' small histories load
// states again from the table, as a long rebuild does. TestMain
// calls it before any test runs, unless benchmarks are asked for.
func SmallTransactions() {
	rebuildTxEvents, rebuildBatch, maxCachedStates = 64, 16, 8
}
