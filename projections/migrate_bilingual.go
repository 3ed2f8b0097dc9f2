package projections

import (
	"context"
	"database/sql"

	"github.com/crossrank/crossrank/events"
)

// migrationSteps run in Go right after the migration file they are named
// after, in its transaction: what SQL cannot do.
var migrationSteps = map[string]func(ctx context.Context, tx *sql.Tx) error{
	"migrations/033_bilingual_claims.sql": splitBilingual,
}

// splitBilingual splits the claims and rationales that migration 033 moved
// whole into their Chinese column because they hold a Han character, as
// the upcaster reads the events they came from (events.TextFrom): a
// "中文 / English" string becomes its two halves. Without it the migrated
// read models differed from a replay of the same events until a rebuild,
// and `crossrank verify` said so on every upgraded desk.
func splitBilingual(ctx context.Context, tx *sql.Tx) error {
	for _, c := range []struct{ table, zh, en string }{
		{"evidence", "claim_zh", "claim_en"},
		{"changes", "rationale_zh", "rationale_en"},
		{"methodology_proposals", "rationale_zh", "rationale_en"},
	} {
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT `+c.zh+` FROM `+c.table+` WHERE `+c.en+` = '' AND instr(`+c.zh+`, ' / ') > 0`)
		if err != nil {
			return err
		}
		var both []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				rows.Close()
				return err
			}
			both = append(both, s)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		for _, s := range both {
			t := events.TextFrom(s)
			if t.En == "" {
				continue // one language after all ("支持 TCP / UDP")
			}
			if _, err := tx.ExecContext(ctx, `UPDATE `+c.table+` SET `+c.zh+` = ?, `+c.en+` = ? WHERE `+c.zh+` = ? AND `+c.en+` = ''`, t.Zh, t.En, s); err != nil {
				return err
			}
		}
	}
	return nil
}
