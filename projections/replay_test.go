package projections_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/projections"
)

// TestReplayIsDeterministic: the read models a desk built live (Run, while
// the commands ran) hold exactly the bytes of models built by applying the
// same events again in batches of any size, of the same models applied
// twice, and of a rebuild after the file was deleted; and all of them
// verify.
func TestReplayIsDeterministic(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	path := filepath.Join(t.TempDir(), "read.db")
	d := startLiveDesk(t, path)
	richHistory(t, d)

	// The history holds every path the test means to cover.
	ps := d.ps
	for q, want := range map[string]int{
		"SELECT count(*) FROM editions": 2,
		"SELECT count(*) FROM audit WHERE type='crossrank.proposal.returned_to_review.v1'":                              1,
		"SELECT count(*) FROM audit WHERE type='crossrank.proposal.veto_dismissed.v2'":                                  1,
		"SELECT count(*) FROM audit WHERE type='crossrank.proposal.revised.v1'":                                         1,
		"SELECT count(*) FROM audit WHERE type='crossrank.ranking.methodology_published.v1'":                            2,
		"SELECT count(*) FROM methodology_history WHERE kind='weight'":                                                  2,
		"SELECT count(*) FROM audit WHERE type IN ('crossrank.user.role_granted.v1', 'crossrank.user.role_revoked.v1')": 2,
		"SELECT count(*) FROM proposals WHERE status='withdrawn'":                                                       1,
		"SELECT count(*) FROM proposals WHERE status='rejected'":                                                        1,
		"SELECT count(*) FROM tokens WHERE revoked=1":                                                                   1,
		"SELECT count(*) FROM webhook_deliveries":                                                                       2,
		"SELECT count(*) FROM votes WHERE dismissed_by='publisher'":                                                     1,
	} {
		mustCount(t, ps, want, q)
	}
	last := d.catchUp(t)
	d.stop()
	live, liveSchema := dump(t, ps), schema(t, ps)
	if _, err := projections.Verify(ctx, d.env.Store, ps.DB()); err != nil {
		t.Fatalf("verify the live models: %v", err)
	}

	// Applying the stream again, whatever the batch size, gives the same
	// bytes; applying it a second time changes nothing.
	evs := replayAll(t, d.env.Store)
	if uint64(len(evs)) != last {
		t.Fatalf("replayed %d events, the stream holds %d", len(evs), last)
	}
	for _, size := range []int{1, 7, 100, len(evs)} {
		t.Run(fmt.Sprintf("batches of %d", size), func(t *testing.T) {
			s := open(t, filepath.Join(t.TempDir(), "again.db"))
			applyInBatches(t, s, evs, size)
			if got := dump(t, s); got != live {
				t.Fatalf("applied in batches of %d, the models differ from the live ones: %s", size, diff(live, got))
			}
			applyInBatches(t, s, evs, len(evs))
			if got := dump(t, s); got != live {
				t.Fatalf("applied twice, the models changed: %s", diff(live, got))
			}
		})
	}
	applyInBatches(t, ps, evs, 50)
	if got := dump(t, ps); got != live {
		t.Fatalf("the stream applied again to the live models changed them: %s", diff(live, got))
	}

	// Rebuild after the file is gone.
	if err := ps.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		os.Remove(f)
	}
	st, err := projections.Rebuild(ctx, d.env.Store, path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Events != last {
		t.Errorf("rebuild replayed %d events, want %d", st.Events, last)
	}
	rebuilt := open(t, path)
	if got := dump(t, rebuilt); got != live {
		t.Fatalf("the rebuilt models differ from the live ones: %s", diff(live, got))
	}
	if got := schema(t, rebuilt); got != liveSchema {
		t.Fatalf("the rebuilt file's schema differs (tables, indexes):\n%s\nwant\n%s", got, liveSchema)
	}
	if seq, head := rebuilt.Checkpoint(); seq != last || head == "" {
		t.Errorf("rebuilt checkpoint = %d %q, want %d and a chain head", seq, head, last)
	}
	if _, err := projections.Verify(ctx, d.env.Store, rebuilt.DB()); err != nil {
		t.Fatalf("verify the rebuilt models: %v", err)
	}
	if leftovers, _ := filepath.Glob(path + ".rebuild-*"); len(leftovers) > 0 {
		t.Errorf("rebuild left %v behind", leftovers)
	}
}

// schema lists the tables and indexes of the models with their SQL.
func schema(t *testing.T, s *projections.Store) string {
	t.Helper()
	rows, err := s.DB().Query("SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, q string
		if err := rows.Scan(&typ, &name, &q); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s: %s\n", typ, name, q)
	}
	return b.String()
}
