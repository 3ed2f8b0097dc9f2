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
