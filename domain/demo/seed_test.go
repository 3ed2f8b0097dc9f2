package demo_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
)

// fakeHash stands in for argon2id: the domain only checks the PHC prefix,
// and hashing is web's concern (tested there).
func fakeHash(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }

func TestSeedPublishesEditionOneAndVerifies(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	env := jstest.Start(t)
	h := handler.New(env.Store, nil)
	ps, err := projections.Open(filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	go ps.Run(ctx, env.Store, nil)
	opts := demo.Options{Password: "pw", HashPassword: fakeHash, Now: time.Now(), AuditHead: ps.AuditHead}
	sum, err := demo.Seed(ctx, h, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Appended || sum.Edition != 1 {
		t.Fatalf("first seed: %+v, want appended edition 1", sum)
	}
	last, _ := env.Store.LastSequence(ctx)
	if err := ps.WaitFor(ctx, last); err != nil {
		t.Fatal(err)
	}

	ed, _ := h.Edition(ctx, demo.RankingSlug)
	cats := map[string]bool{}
	for _, e := range ed.Entries {
		cats[e.Category] = true
	}
	if len(ed.Entries) != 9 || len(cats) != 4 {
		t.Errorf("edition 1 has %d entries in %d categories, want 9 in 4", len(ed.Entries), len(cats))
	}

	// Every published score has evidence with an excerpt and a section.
	db := ps.DB()
	var unbacked int
	err = db.QueryRow(`SELECT count(*) FROM scores s WHERE NOT EXISTS (
		SELECT 1 FROM published_evidence pe JOIN evidence e ON e.proposal=pe.proposal AND e.evidence_id=pe.evidence_id
		WHERE pe.ranking=s.ranking AND pe.entry=s.entry AND pe.target='score:'||s.criterion
		AND e.excerpt<>'' AND e.section<>'')`).Scan(&unbacked)
	if err != nil || unbacked != 0 {
		t.Errorf("%d published scores without an excerpt and section (err %v)", unbacked, err)
	}
	var scores int
	db.QueryRow(`SELECT count(*) FROM scores`).Scan(&scores)
	if scores < 30 {
		t.Errorf("only %d published scores", scores)
	}

	// Every desk queue has something in it.
	for status, want := range map[string]int{"draft": 1, "in_review": 1, "cross_validated": 1, "published": 10} { // nine platforms and the definition
		var n int
		db.QueryRow(`SELECT count(*) FROM proposals WHERE status=?`, status).Scan(&n)
		if n != want {
			t.Errorf("%d proposals %s, want %d", n, status, want)
		}
	}

	checkQueries(t, ctx, ps)

	if _, err := projections.Verify(ctx, env.Store, db); err != nil {
		t.Fatalf("verify after seeding: %v", err)
	}

	// Seeding again changes nothing.
	sum, err = demo.Seed(ctx, h, opts)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := env.Store.LastSequence(ctx)
	if sum.Appended || again != last {
		t.Fatalf("second seed appended (%v) or moved the stream %d → %d", sum.Appended, last, again)
	}
	// A fresh handler (a restarted process) sees the same and appends nothing.
	sum, err = demo.Seed(ctx, handler.New(env.Store, nil), opts)
	if err != nil || sum.Appended {
		t.Fatalf("seed from a fresh handler: %+v, %v", sum, err)
	}
}

// The stored excerpts are verbatim quotes of the article (checked in
// content_test too); this checks the ones that reached the read model.
func TestSeededExcerptsQuoteTheArticle(t *testing.T) {
	article := os.Getenv("CROSSRANK_SEED_ARTICLE")
	if article == "" {
		article = "../../../shared/seed/004_f36d2dba66309d29.txt"
	}
	text, err := os.ReadFile(article)
	if err != nil {
		t.Skipf("article not present (%v); content_test checks excerpts where it is", err)
	}
	for _, p := range demo.File().Entries {
		for _, e := range p.Evidence {
			if !strings.Contains(string(text), e.Excerpt) {
				t.Errorf("%s/%s: excerpt not in the article: %q", p.Slug, e.Key, e.Excerpt)
			}
		}
	}
}

// checkQueries reads the seeded desk through the queries the pages use.
func checkQueries(t *testing.T, ctx context.Context, ps *projections.Store) {
	t.Helper()
	v, err := ps.Standing(ctx, demo.RankingSlug, "", nil)
	if err != nil || len(v.Rows) != 9 || v.Edition != 1 {
		t.Fatalf("Standing: %d rows, edition %d, %v", len(v.Rows), v.Edition, err)
	}
	for i, r := range v.Rows {
		if r.Rank != i+1 || (i > 0 && r.Total > v.Rows[i-1].Total) {
			t.Errorf("row %d: rank %d total %d out of order", i, r.Rank, r.Total)
		}
	}
	// The buyer who needs interruptible (Spot) capacity keeps only PPIO.
	v, err = ps.Standing(ctx, demo.RankingSlug, "training", map[string]string{"interruptible": "yes"})
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, r := range v.Rows {
		if len(r.Excluded) == 0 {
			kept = append(kept, r.Slug)
		} else if r.Excluded[0].Reason.Zh == "" {
			t.Errorf("%s excluded without a reason", r.Slug)
		}
	}
	if strings.Join(kept, ",") != "ppio" {
		t.Errorf("interruptible keeps %v, want [ppio]", kept)
	}
	e, err := ps.Entry(ctx, demo.RankingSlug, "zhixingyun")
	if err != nil || !e.Published || len(e.Scores) == 0 || len(e.History) != 1 {
		t.Fatalf("Entry: %+v, %v", e, err)
	}
	for _, s := range e.Scores {
		if len(s.Evidence) == 0 || s.Rationale.Zh == "" || s.Rationale.En == "" {
			t.Errorf("score %s has no evidence or rationale", s.Criterion)
		}
	}
	q, err := ps.Queues(ctx, "reviewer2", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(q.AwaitingReview) != 1 || len(q.ReadyToPublish) != 1 || len(q.Stale) == 0 || len(q.Recent) != 1 {
		t.Errorf("reviewer2 queues: awaiting %d, ready %d, stale %d, recent %d", len(q.AwaitingReview), len(q.ReadyToPublish), len(q.Stale), len(q.Recent))
	}
	q, _ = ps.Queues(ctx, "editor", time.Now())
	if len(q.MyDrafts) != 1 {
		t.Errorf("editor has %d drafts, want 1", len(q.MyDrafts))
	}
	d, err := ps.Proposal(ctx, q.MyDrafts[0].ID)
	if err != nil || len(d.Evidence) == 0 || len(d.Changes) == 0 {
		t.Errorf("draft detail: %+v, %v", d, err)
	}
}
