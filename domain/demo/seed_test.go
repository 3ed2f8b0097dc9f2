package demo_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
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
	h := domain.NewHandler(env.Store, nil)
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
	for status, want := range map[string]int{"draft": 1, "in_review": 1, "cross_validated": 1, "published": 9} {
		var n int
		db.QueryRow(`SELECT count(*) FROM proposals WHERE status=?`, status).Scan(&n)
		if n != want {
			t.Errorf("%d proposals %s, want %d", n, status, want)
		}
	}

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
	sum, err = demo.Seed(ctx, domain.NewHandler(env.Store, nil), opts)
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
	for _, p := range demo.Platforms() {
		for _, e := range p.Evidence {
			if !strings.Contains(string(text), e.Excerpt) {
				t.Errorf("%s/%s: excerpt not in the article: %q", p.Slug, e.Key, e.Excerpt)
			}
		}
	}
}
