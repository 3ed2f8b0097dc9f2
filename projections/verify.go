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
	Edition int // 0 when not about an edition
	// Seq is the stream sequence: of the event, or of the read-model row
	// (its seq column), or else the read model's checkpoint compared.
	Seq uint64
	// Where a read-model row differs from the replayed one: its table, its
	// primary key (`seq 57`, `ranking "r", entry "e", criterion "c"`) and
	// the column that differs ("" when a whole row is missing on one side).
	// All three are empty when the mismatch is not about a row.
	Table, Key, Column string
	What               string
}

func (m *Mismatch) Error() string {
	switch {
	case m.Edition > 0:
		return fmt.Sprintf("verify: edition %d (sequence %d): %s", m.Edition, m.Seq, m.What)
	case m.Table != "":
		return "verify: " + m.What // it names the row, and so the sequence
	}
	return fmt.Sprintf("verify: sequence %d: %s", m.Seq, m.What)
}

// VerifyReport summarises a successful verification.
type VerifyReport struct {
	Events   uint64
	Editions int
	Head     string // audit chain head after the last event
	// With a read model: the checkpoint its rows were compared at, and how
	// many rows were.
	ReadModelSeq uint64
	Rows         uint64
}

// Verify replays the stream, recomputes the audit hash chain and every
// edition's ranking snapshot, and compares them with what each
// EditionPublished committed. When db is not nil it also replays the
// stream, up to the read model's checkpoint, into a fresh read model with
// the projection's code and compares every row of every table — the audit
// trail, the published rankings, their scores and evidence, the desk — with
// db, column by column. It returns the first disagreement as a *Mismatch.
//
// db may be the live read model of a running server: its rows are read in
// one transaction, at one checkpoint, which the replay reaches exactly.
func Verify(ctx context.Context, src Replayer, db *sql.DB) (VerifyReport, error) {
	return verify(ctx, src, db, verifyHooks{})
}

func verify(ctx context.Context, src Replayer, db *sql.DB, hooks verifyHooks) (VerifyReport, error) {
	check, report := streamCheck(ctx, db)
	if db == nil {
		err := src.Replay(ctx, 1, check)
		return report(), err
	}
	// One replay serves both: the replayed read model is built from the
	// events up to the live model's checkpoint, and check sees them all.
	seq, rows, err := compareReadModel(ctx, src, db, check, hooks)
	rep := report()
	rep.ReadModelSeq, rep.Rows = seq, rows
	return rep, err
}

// streamCheck returns a function that recomputes the audit chain and the
// editions event by event, in stream order — with db, it also checks each
// edition's snapshot row against the committed hash — and one that reports
// what it has seen.
func streamCheck(ctx context.Context, db *sql.DB) (check func(events.Event) error, report func() VerifyReport) {
	var rep VerifyReport
	var heads [][32]byte // heads[i] = chain head after sequence i+1
	head := ""
	rankings := map[string]*domain.Ranking{}
	editions := map[string]*domain.Edition{}
	check = func(ev events.Event) error {
		head = events.ChainHash(head, ev)
		var h [32]byte
		hex.Decode(h[:], []byte(head))
		heads = append(heads, h)
		rep.Events++
		switch d := ev.Data.(type) {
		case *events.RankingDefined, *events.WeightsSet, *events.ScenariosSet, *events.MethodologyPublished:
			r := rankings[ev.Subject]
			if r == nil {
				r = &domain.Ranking{}
				rankings[ev.Subject] = r
			}
			r.Evolve(ev)
		case *events.EditionPartRecorded:
			editionOf(editions, ev.Subject).Evolve(ev)
		case *events.EditionPublished:
			rep.Editions++
			return checkEdition(ctx, db, ev, d, rankings, editions, heads)
		}
		return nil
	}
	report = func() VerifyReport {
		rep.Head = head
		return rep
	}
	return check, report
}

// editionOf returns the replayed edition state of a ranking, empty at first.
func editionOf(editions map[string]*domain.Edition, ranking string) *domain.Edition {
	ed := editions[ranking]
	if ed == nil {
		ed = &domain.Edition{Ranking: ranking, Entries: map[string]*domain.PublishedEntry{}}
		editions[ranking] = ed
	}
	return ed
}

func checkEdition(ctx context.Context, db *sql.DB, ev events.Event, d *events.EditionPublished,
	rankings map[string]*domain.Ranking, editions map[string]*domain.Edition, heads [][32]byte) error {
	ed := editionOf(editions, d.Ranking)
	if d.Size != nil {
		var got events.EditionSize
		if ed.Parts != nil && ed.Parts.Number == d.Number {
			got = ed.Parts.EditionSize
		}
		if got != *d.Size {
			return &Mismatch{Edition: d.Number, Seq: ev.Sequence, What: fmt.Sprintf("committed %d parts (%d proposals, %d new entries, %d changes) but the stream holds %d (%d, %d, %d)",
				d.Size.Parts, d.Size.Proposals, d.Size.NewEntries, d.Size.Changes, got.Parts, got.Proposals, got.NewEntries, got.Changes)}
		}
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
