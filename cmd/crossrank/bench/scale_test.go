package bench

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/rankfile"
)

// TestScaleSmoke runs the scale part of `crossrank bench` on a tiny
// ranking, so that it cannot rot between full runs: import through the
// API, batch review by two reviewers, the first edition, the pages under
// a short load and the rebuild (in this process: the test has no
// crossrank binary), then the report's rows.
func TestScaleSmoke(t *testing.T) {
	o := &options{out: &bytes.Buffer{}, start: time.Now(), runs: 1, seed: 1, clients: 4,
		duration: 200 * time.Millisecond, warmup: 50 * time.Millisecond, only: []string{"scale"},
		scaleSize: rankfile.Size{Entries: 12, Criteria: 3, Evidence: 2}, work: t.TempDir()}
	o.scratch = o.work
	res, err := measureScale(context.Background(), o, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.pub.refused != "" {
		t.Fatalf("edition 1 refused: %s", res.pub.refused)
	}
	proposals := o.scaleSize.Entries + 1 // and the ranking's methodology
	if res.imp.proposals != proposals || res.review.votes != 2*proposals || res.pub.proposals != proposals {
		t.Errorf("opened %d, votes %d, published %d; want %d, %d, %d", res.imp.proposals, res.review.votes, res.pub.proposals,
			proposals, 2*proposals, proposals)
	}
	if res.pub.changes != o.scaleSize.Entries*o.scaleSize.Criteria {
		t.Errorf("edition 1 has %d changes, want %d", res.pub.changes, o.scaleSize.Entries*o.scaleSize.Criteria)
	}
	if res.imp.events == 0 || res.review.events < res.review.votes || res.pub.events == 0 || res.rebuilt == 0 {
		t.Errorf("events read back: import %d, review %d, publish %d; rebuilt %d", res.imp.events, res.review.events, res.pub.events, res.rebuilt)
	}
	if len(res.pages) != len(reviewPages)+len(publishPages)+len(publicPages) {
		t.Errorf("%d pages loaded", len(res.pages))
	}
	r := &report{o: o, scale: []scaleResult{res}}
	var out bytes.Buffer
	r.print(&out)
	for _, row := range []string{"import through the API", "batch review through the API", "first edition of all 12 entries",
		"rebuild of the resulting stream", "review queue /desk/review", "dashboard /desk", "publish page /desk/publish",
		"public ranking page 1 /r/{slug}", "search /desk/search", "as sent gzipped", "peak memory through"} {
		if !strings.Contains(out.String(), row) {
			t.Errorf("the report has no row %q:\n%s", row, out.String())
		}
	}
}
