package projections

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// Mismatch is the first disagreement verify found.
type Mismatch struct {
	Edition int    // 0 when not about an edition
	Seq     uint64 // stream sequence
	What    string
}

func (m *Mismatch) Error() string {
	if m.Edition > 0 {
		return fmt.Sprintf("verify: edition %d (sequence %d): %s", m.Edition, m.Seq, m.What)
	}
	return fmt.Sprintf("verify: sequence %d: %s", m.Seq, m.What)
}

// VerifyReport summarises a successful verification.
type VerifyReport struct {
	Events   uint64
	Editions int
	Head     string // audit chain head after the last event
}

// Verify replays the stream, recomputes the audit hash chain and every
// edition's ranking snapshot, and compares them with what each
// EditionPublished committed and, when db is not nil, with the live read
// models (audit rows, edition snapshots, checkpoint). It returns the first
// disagreement as a *Mismatch.
func Verify(ctx context.Context, src Replayer, db *sql.DB) (VerifyReport, error) {
	var rep VerifyReport
	var heads [][32]byte // heads[i] = chain head after sequence i+1
	head := ""
	rankings := map[string]*domain.Ranking{}
	editions := map[string]*domain.Edition{}
	var audit *sql.Rows
	if db != nil {
		var err error
		if audit, err = db.QueryContext(ctx, "SELECT seq, hash FROM audit ORDER BY seq"); err != nil {
			return rep, err
		}
		defer audit.Close()
	}
	err := src.Replay(ctx, 1, func(ev events.Event) error {
		head = events.ChainHash(head, ev)
		var h [32]byte
		hex.Decode(h[:], []byte(head))
		heads = append(heads, h)
		rep.Events++
		if audit != nil && audit.Next() {
			var seq uint64
			var stored string
			if err := audit.Scan(&seq, &stored); err != nil {
				return err
			}
			if seq != ev.Sequence || stored != head {
				return &Mismatch{Seq: ev.Sequence, What: fmt.Sprintf("audit row %d hash %.12s… differs from the replayed chain %.12s…", seq, stored, head)}
			}
		}
		switch d := ev.Data.(type) {
		case *events.RankingDefined, *events.WeightsSet, *events.ScenariosSet:
			r := rankings[ev.Subject]
			if r == nil {
				r = &domain.Ranking{}
				rankings[ev.Subject] = r
			}
			r.Evolve(ev)
		case *events.EditionPublished:
			rep.Editions++
			return checkEdition(ctx, db, ev, d, rankings, editions, heads)
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	if audit != nil {
		if err := audit.Err(); err != nil { // a failed read is not the end of the trail
			return rep, err
		}
	}
	rep.Head = head
	if db != nil {
		var seq uint64
		var dbHead string
		if err := db.QueryRowContext(ctx, "SELECT seq, audit_head FROM checkpoint WHERE id=1").Scan(&seq, &dbHead); err != nil {
			return rep, err
		}
		if seq > rep.Events {
			return rep, &Mismatch{Seq: seq, What: "the read model is ahead of the stream"}
		}
		if seq > 0 && hex.EncodeToString(heads[seq-1][:]) != dbHead {
			return rep, &Mismatch{Seq: seq, What: "the read model's checkpoint chain head differs from the replayed chain"}
		}
	}
	return rep, nil
}

func checkEdition(ctx context.Context, db *sql.DB, ev events.Event, d *events.EditionPublished,
	rankings map[string]*domain.Ranking, editions map[string]*domain.Edition, heads [][32]byte) error {
	ed := editions[d.Ranking]
	if ed == nil {
		ed = &domain.Edition{Ranking: d.Ranking, Entries: map[string]*domain.PublishedEntry{}}
		editions[d.Ranking] = ed
	}
	ed.Evolve(ev)
	r := rankings[d.Ranking]
	if r == nil {
		return &Mismatch{Edition: d.Number, Seq: ev.Sequence, What: "edition of an undefined ranking"}
	}
	snap := domain.BuildSnapshot(r, ed)
	if got := snap.Hash(); got != d.SnapshotHash {
		return &Mismatch{Edition: d.Number, Seq: ev.Sequence, What: fmt.Sprintf("committed snapshot hash %.12s… but the replayed ranking hashes to %.12s…", d.SnapshotHash, got)}
	}
	if d.AuditSeq > 0 {
		if d.AuditSeq >= ev.Sequence || hex.EncodeToString(heads[d.AuditSeq-1][:]) != d.AuditHead {
			return &Mismatch{Edition: d.Number, Seq: ev.Sequence, What: fmt.Sprintf("committed audit head at sequence %d does not match the replayed chain", d.AuditSeq)}
		}
	}
	if db == nil {
		return nil
	}
	var stored, storedHash string
	err := db.QueryRowContext(ctx, "SELECT snapshot, snapshot_hash FROM editions WHERE ranking=? AND number=?", d.Ranking, d.Number).Scan(&stored, &storedHash)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // the read model has not reached this edition yet
	}
	if err != nil {
		return err
	}
	sum := sha256.Sum256([]byte(stored))
	if hex.EncodeToString(sum[:]) != d.SnapshotHash || storedHash != d.SnapshotHash {
		return &Mismatch{Edition: d.Number, Seq: ev.Sequence, What: "the read model's snapshot row differs from the committed hash"}
	}
	return nil
}
