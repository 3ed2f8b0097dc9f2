package projections_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
)

// TestFoldedTransitionsReadAsTwoEvents: the same history written the way
// commands append it now (a vote's or dismissed veto's change of status
// inside it, events.Transition) and the way they appended it before (a
// separate ProposalCrossValidated or ProposalReturnedToReview after it)
// reads the same: the same proposals with the same status and quorum, the
// same votes, the same inbox rows in the same order. Only the sequences
// differ, the folded history having fewer events.
func TestFoldedTransitionsReadAsTwoEvents(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	two, one := jstest.Start(t), jstest.Start(t)
	if err := history.Generate(ctx, two.Store, 1500, 7); err != nil {
		t.Fatal(err)
	}
	if err := history.GenerateFolded(ctx, one.Store, 1500, 7); err != nil {
		t.Fatal(err)
	}
	if _, err := projections.Verify(ctx, one.Store, nil); err != nil {
		t.Fatalf("verify the folded history: %v", err)
	}
	evTwo, evOne := replayAll(t, two.Store), replayAll(t, one.Store)
	folded := map[string]int{}
	for _, ev := range evOne {
		switch d := ev.Data.(type) {
		case *events.ProposalCrossValidated, *events.ProposalReturnedToReview:
			if r, ok := d.(*events.ProposalReturnedToReview); !ok || r.Reason == "veto" {
				t.Errorf("the folded history holds a separate %s at %d", ev.Type, ev.Sequence)
			}
		case *events.VoteCast:
			folded["vote, cross-validated"] += boolInt(d.CrossValidated != nil)
			folded["vote, returned"] += boolInt(d.ReturnedToReview != nil)
		case *events.VetoDismissed:
			folded["dismissed veto, cross-validated"] += boolInt(d.CrossValidated != nil)
		}
	}
	n := 0
	for _, k := range []string{"vote, cross-validated", "vote, returned", "dismissed veto, cross-validated"} {
		n += folded[k]
	}
	// The generator's vetoes come before the quorum and its dismissals
	// before the last approval: TestFoldedCommandsReadAsTwoEvents has
	// the other transitions.
	if folded["vote, cross-validated"] == 0 {
		t.Errorf("no vote carrying the cross-validation in the folded history: %v", folded)
	}
	if len(evOne)+n != len(evTwo) {
		t.Errorf("%d events folded, %d unfolded, %d transitions: want the difference", len(evOne), len(evTwo), n)
	}

	psTwo, psOne := rebuiltStore(t, two.Store), rebuiltStore(t, one.Store)
	dbTwo, dbOne := psTwo.DB(), psOne.DB()
	sameReview(t, dbTwo, dbOne, "proposals", "votes", "revisions", "evidence", "changes", "inbox")
	sameVoteTypes(t, psTwo, psOne, evTwo, evOne)
	// The audit trail has one row per event; a folded event's row tells
	// both what the separate rows told.
	var rows int
	if err := dbOne.QueryRow(`SELECT count(*) FROM audit WHERE type='` + events.TypeVoteCast + `'
		AND msg='vote_cast_cross_validated' AND args->>'verdict'='approve'
		AND args->>'validated' IS NOT NULL`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != folded["vote, cross-validated"] {
		t.Errorf("%d audit rows of votes tell the cross-validation, want %d", rows, folded["vote, cross-validated"])
	}
}

// TestFoldedCommandsReadAsTwoEvents: the desk's commands (the demo seed
// and a second week, through the handler: votes that cross-validate, a veto
// that returns a cross-validated proposal to review, a dismissed veto that
// completes the quorum, a methodology proposal opened with its
// methodology) append one event each; the same stream with every folded
// event unfolded into the two events commands appended before, appended
// raw, reads the same.
func TestFoldedCommandsReadAsTwoEvents(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	d := startLiveDesk(t, filepath.Join(t.TempDir(), "live.db"))
	richHistory(t, d)
	// A proposal cross-validated by its second approval, returned to
	// review by a veto, cross-validated again when a publisher dismisses it.
	h, id, slug := d.h, "x-late", demo.RankingSlug
	do(t, "open")(h.OpenProposal(ctx, editor, domain.OpenProposal{CommandID: id + "-open", ID: id, Ranking: slug,
		Entry: "ppio", Title: "A late look"}))
	do(t, "evidence")(h.AddEvidence(ctx, editor, domain.AddEvidence{CommandID: id + "-ev", Proposal: id, Claim: events.Text{En: "Pricing page"},
		SourceURL: "https://example.com/ppio", Excerpt: "Billed by the hour.", ObservedOn: "2026-01-10"}))
	do(t, "score")(h.ProposeScore(ctx, editor, domain.ProposeScore{CommandID: id + "-score", Proposal: id,
		Criterion: demo.CritOnboarding, To: 1, Rationale: events.Text{En: "See the pricing page."}, Evidence: []string{"e1"}}))
	do(t, "submit")(h.Submit(ctx, editor, domain.Submit{CommandID: id + "-submit", Proposal: id}))
	for _, r := range []string{"reviewer1", "reviewer2"} {
		do(t, "approve")(h.CastVote(ctx, reviewer(r), domain.CastVote{CommandID: id + "-" + r, Proposal: id, Revision: 1,
			Verdict: events.Approve, VerifiedEvidence: []string{"e1"}}))
	}
	do(t, "veto")(h.CastVote(ctx, reviewer("reviewer3"), domain.CastVote{CommandID: id + "-veto", Proposal: id,
		Revision: 1, Verdict: events.Reject, Comment: "The page changed."}))
	do(t, "dismiss")(h.DismissVeto(ctx, publisher, domain.DismissVeto{CommandID: id + "-dismiss", Proposal: id,
		Voter: "reviewer3", Reason: "It did not."}))
	if p, err := h.Proposal(ctx, id); err != nil || p.Status != domain.StatusCrossValidated {
		t.Fatalf("%s: %v, %v; want cross_validated", id, p.Status, err)
	}
	// A methodology proposal opened with its methodology: the weights
	// of the first two criteria swapped.
	r, err := h.Ranking(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Methodology()
	m.Criteria = slices.Clone(m.Criteria)
	m.Criteria[0].Weight, m.Criteria[1].Weight = m.Criteria[1].Weight, m.Criteria[0].Weight
	if m.Criteria[0].Weight == m.Criteria[1].Weight {
		m.Criteria[0].Weight, m.Criteria[1].Weight = m.Criteria[0].Weight+1, m.Criteria[1].Weight-1
	}
	do(t, "methodology")(h.OpenProposal(ctx, editor, domain.OpenProposal{CommandID: "x-method-open", ID: "x-method",
		Ranking: slug, Title: "Swap two weights", Methodology: true, Proposed: &m, Rationale: events.Text{En: "Buyers said so."}}))
	// The command line's change of someone's password revokes the user's
	// live token (an admin resets with a one-time link instead).
	do(t, "token")(h.IssueToken(ctx, reviewer("reviewer3"), domain.IssueToken{CommandID: "x-r3-token", User: "reviewer3",
		TokenID: "tok-r3", Name: "Script", Hash: strings.Repeat("a", 64)}))
	hash, _ := fakeHash("")
	do(t, "reset")(h.ChangePassword(ctx, domain.System(), domain.ChangePassword{CommandID: "x-r3-reset", User: "reviewer3", PasswordHash: hash}))
	d.catchUp(t)
	d.stop()

	two := jstest.Start(t)
	evOne := replayAll(t, d.env.Store)
	kinds := map[string]int{}
	for _, ev := range evOne {
		unfolded := history.Unfold([]domain.Change{{Aggregate: ev.Aggregate(), Data: ev.Data}})
		if len(unfolded) > 1 {
			kinds[fmt.Sprintf("%s + %T", ev.Name(), unfolded[1].Data)]++
		}
		var out []events.Event
		for i, c := range unfolded {
			id := ev.ID
			if i > 0 {
				id = events.NewID(ev.Time)
			}
			e, err := events.New(id, ev.Time, ev.Actor, ev.Subject, c.Data)
			if err != nil {
				t.Fatal(err)
			}
			e.AuthVia, e.CorrelationID, e.CausationID = ev.AuthVia, ev.CorrelationID, ev.CausationID
			out = append(out, e)
		}
		if _, err := two.Store.Append(ctx, nil, out...); err != nil {
			t.Fatalf("append %s unfolded: %v", ev.Type, err)
		}
	}
	for _, k := range []string{"vote_cast + *events.ProposalCrossValidated", "vote_cast + *events.ProposalReturnedToReview",
		"veto_dismissed + *events.ProposalCrossValidated", "opened + *events.MethodologyProposed",
		"password_changed + *events.TokenRevoked"} {
		if kinds[k] == 0 {
			t.Errorf("no %s folded in the desk's stream: %v", k, kinds)
		}
	}
	dbTwo, dbOne := rebuiltDB(t, two.Store), rebuiltDB(t, d.env.Store)
	sameReview(t, dbTwo, dbOne, "proposals", "votes", "revisions", "evidence", "changes", "comments",
		"proposal_reviewers", "inbox", "methodology_proposals", "tokens")
}

// sameReview fails unless the tables hold the same rows in both read
// models, sequences aside; the inbox in the order it is shown.
func sameReview(t *testing.T, dbTwo, dbOne *sql.DB, tables ...string) {
	t.Helper()
	for _, table := range tables {
		cols := columnsBut(t, dbTwo, table, "seq")
		q := "SELECT " + cols + " FROM " + table + " ORDER BY " + cols
		if table == "inbox" {
			q = "SELECT " + cols + " FROM inbox ORDER BY user, seq DESC, kind"
		}
		a, b := rowsText(t, dbTwo, q), rowsText(t, dbOne, q)
		if a != b {
			t.Errorf("%s differ between the two shapes: %s", table, diff(a, b))
		}
		if a == "" {
			t.Errorf("%s: no rows to compare", table)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rebuiltDB rebuilds the read models of src in a new file and returns its
// database.
func rebuiltDB(t *testing.T, src projections.Replayer) *sql.DB {
	t.Helper()
	return rebuiltStore(t, src).DB()
}

// rebuiltStore rebuilds the read models of src in a new file and opens it.
func rebuiltStore(t *testing.T, src projections.Replayer) *projections.Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rebuilt.db")
	if _, err := projections.Rebuild(testContext(t), src, path); err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	return open(t, path)
}

// sameVoteTypes: the unfolded history stores its votes as vote_cast.v1,
// as the desk wrote them before the fold, the folded one as v2. Each audit
// row names the type as stored, yet the trail lists one vote type, the
// current one, and filtering by either version finds every vote of either
// history.
func sameVoteTypes(t *testing.T, psTwo, psOne *projections.Store, evTwo, evOne []events.Event) {
	t.Helper()
	const v1 = "crossrank.proposal.vote_cast.v1"
	ctx := testContext(t)
	for _, h := range []struct {
		name   string
		ps     *projections.Store
		evs    []events.Event
		stored string
	}{{"unfolded", psTwo, evTwo, v1}, {"folded", psOne, evOne, events.TypeVoteCast}} {
		votes := 0
		for _, ev := range h.evs {
			if _, ok := ev.Data.(*events.VoteCast); ok {
				votes++
				if ev.StoredType != h.stored {
					t.Fatalf("%s history: vote at %d stored as %s, want %s", h.name, ev.Sequence, ev.StoredType, h.stored)
				}
			}
		}
		types, err := h.ps.AuditTypes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(types, events.TypeVoteCast) || slices.Contains(types, v1) {
			t.Errorf("%s history: the trail lists the types %v, want %s and not %s", h.name, types, events.TypeVoteCast, v1)
		}
		for _, filter := range []string{v1, events.TypeVoteCast} {
			rows := 0
			err := h.ps.AuditEach(ctx, projections.AuditFilter{Type: filter}, func(r projections.AuditRow) error {
				rows++
				if r.Type != h.stored {
					t.Errorf("%s history: row %d of type %s, want %s as stored", h.name, r.Seq, r.Type, h.stored)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if rows != votes {
				t.Errorf("%s history: the filter %s finds %d rows, the history holds %d votes", h.name, filter, rows, votes)
			}
		}
	}
}

// columnsBut lists table's columns, without skip, for a SELECT.
func columnsBut(t *testing.T, db *sql.DB, table, skip string) string {
	t.Helper()
	rows, err := db.Query(`SELECT name FROM pragma_table_info(?) WHERE name<>? ORDER BY cid`, table, skip)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, c)
	}
	if err := rows.Err(); err != nil || len(cols) == 0 {
		t.Fatalf("columns of %s: %v %v", table, cols, err)
	}
	return strings.Join(cols, ", ")
}

// rowsText returns the rows of q, one line each.
func rowsText(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			if s, ok := v.([]byte); ok {
				v = string(s)
			}
			fmt.Fprintf(&b, "%v\t", v)
		}
		b.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
