package rankfile_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
)

func fakeHash(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }

var (
	importer  = domain.Actor{Name: "importer", Roles: []string{domain.RoleEditor}, Via: events.Via{Method: events.ViaCLI}}
	publisher = domain.Actor{Name: "pub", Roles: []string{domain.RolePublisher}, Via: events.Via{Method: events.ViaCLI}}
)

// store is an empty event store with its read model running.
type store struct {
	env *jstest.Env
	h   *handler.Handler
	ps  *projections.Store
}

func newStore(t *testing.T, ctx context.Context) *store {
	t.Helper()
	env := jstest.Start(t)
	ps, err := projections.Open(filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ps.Close() })
	go ps.Run(ctx, env.Store, nil)
	return &store{env: env, h: handler.New(env.Store, nil), ps: ps}
}

func (s *store) last(t *testing.T, ctx context.Context) uint64 {
	t.Helper()
	n, err := s.env.Store.LastSequence(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func export(t *testing.T, ctx context.Context, h *handler.Handler) []byte {
	t.Helper()
	f, err := rankfile.Export(ctx, h, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rankfile.Encode(&b, f); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// approveAndPublish has two reviewers approve every proposal (verifying
// all its evidence) and a publisher publish them as one edition.
func approveAndPublish(t *testing.T, ctx context.Context, s *store, slug string, ids []string) {
	t.Helper()
	for _, id := range ids {
		p, err := s.h.Proposal(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var all []string
		for _, e := range p.Evidence {
			all = append(all, e.EvidenceID)
		}
		for _, v := range []string{"rev1", "rev2"} {
			a := domain.Actor{Name: v, Roles: []string{domain.RoleReviewer}, Via: events.Via{Method: events.ViaCLI}}
			if _, err := s.h.CastVote(ctx, a, domain.CastVote{CommandID: id + "-" + v, Proposal: id, Revision: p.Revision,
				Verdict: events.Approve, VerifiedEvidence: all}); err != nil {
				t.Fatalf("%s votes on %s: %v", v, id, err)
			}
		}
	}
	pv, _, err := s.h.PreviewEdition(ctx, slug, ids)
	if err != nil {
		t.Fatal(err)
	}
	last := s.last(t, ctx)
	if err := s.ps.WaitFor(ctx, last); err != nil {
		t.Fatal(err)
	}
	head, seq, err := s.ps.AuditHead(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.h.Publish(ctx, publisher, domain.PublishEdition{CommandID: "rt-publish", Ranking: slug, Proposals: ids,
		PreviewHash: pv.Hash, AuditHead: head, AuditSeq: seq}); err != nil {
		t.Fatal(err)
	}
}

func TestRoundTrip(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	src := newStore(t, ctx)
	if _, err := demo.Seed(ctx, src.h, demo.Options{Password: "pw", HashPassword: fakeHash, Now: time.Now(), AuditHead: src.ps.AuditHead}); err != nil {
		t.Fatal(err)
	}
	exported := export(t, ctx, src.h)
	f, err := rankfile.Decode(bytes.NewReader(exported))
	if err != nil {
		t.Fatal(err)
	}
	if f.Edition != 1 || len(f.Entries) != 9 || f.SnapshotHash == "" {
		t.Fatalf("export: edition %d, %d entries, hash %q; want edition 1 with 9 entries", f.Edition, len(f.Entries), f.SnapshotHash)
	}

	dst := newStore(t, ctx)
	rep, err := rankfile.Import(ctx, dst.h, f, importer)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Definition == "" || len(rep.Proposals) != 9 || !rep.Appended {
		t.Fatalf("import: %+v, want a definition and 9 proposals", rep)
	}
	for _, id := range append([]string{rep.Definition}, rep.Proposals...) {
		if p, _ := dst.h.Proposal(ctx, id); p.Status != domain.StatusInReview || p.Author != importer.Name {
			t.Errorf("%s: %s by %s, want in review by the importer", id, p.Status, p.Author)
		}
	}
	if ed, _ := dst.h.Edition(ctx, demo.RankingSlug); ed.Number != 0 {
		t.Fatalf("import published edition %d", ed.Number)
	}

	// Importing the same file again opens nothing.
	before := dst.last(t, ctx)
	again, err := rankfile.Import(ctx, dst.h, f, importer)
	if err != nil || again.Appended || dst.last(t, ctx) != before {
		t.Fatalf("second import: %+v, %v; stream %d → %d", again, err, before, dst.last(t, ctx))
	}

	approveAndPublish(t, ctx, dst, demo.RankingSlug, append([]string{rep.Definition}, rep.Proposals...))
	ed, _ := dst.h.Edition(ctx, demo.RankingSlug)
	t.Logf("exported edition 1 hash %s, re-imported edition %d hash %s", f.SnapshotHash, ed.Number, ed.Last.SnapshotHash)
	if ed.Number != 1 || ed.Last.SnapshotHash != f.SnapshotHash {
		t.Errorf("re-imported edition %d hash %s, want edition 1 hash %s", ed.Number, ed.Last.SnapshotHash, f.SnapshotHash)
	}
	// The re-imported ranking exports as the same file, evidence and all.
	if got := export(t, ctx, dst.h); !bytes.Equal(got, exported) {
		t.Errorf("the re-imported ranking exports differently:\n%s\nwant\n%s", got, exported)
	}

	// After publishing, importing the file again still opens nothing.
	before = dst.last(t, ctx)
	if again, err := rankfile.Import(ctx, dst.h, f, importer); err != nil || again.Appended || again.Definition != "" {
		t.Fatalf("import after publish: %+v, %v", again, err)
	}
	if n := dst.last(t, ctx); n != before {
		t.Errorf("import after publish moved the stream %d → %d", before, n)
	}
}

// demoFile is the demo file with change applied.
func demoFile(change func(*rankfile.File)) *rankfile.File {
	f := demo.File()
	change(f)
	return f
}

func encoded(t *testing.T, f *rankfile.File) []byte {
	var b bytes.Buffer
	if err := rankfile.Encode(&b, f); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestImportRefusesBadInput(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := newStore(t, ctx)
	huge := append([]byte(`{"format":"crossrank.ranking/v1","slug":"x","methodology":{"title":{"zh":"`),
		bytes.Repeat([]byte("a"), 40<<20)...)
	badUTF8 := bytes.Replace(encoded(t, demo.File()), []byte("GPU"), []byte("GP\xff"), 1)
	reviewer := domain.Actor{Name: "rev", Roles: []string{domain.RoleReviewer, domain.RolePublisher}}
	for _, c := range []struct {
		name  string
		raw   []byte
		as    domain.Actor
		field string // the path the error names ("": a file error)
	}{
		{"weights", encoded(t, demoFile(func(f *rankfile.File) { f.Methodology.Criteria[3].Weight += 5 })), importer, "methodology.criteria"},
		{"unknown criterion", encoded(t, demoFile(func(f *rankfile.File) { f.Entries[4].Scores[1].Criterion = "speed" })), importer, "entries[4].scores[1].criterion"},
		{"unknown evidence key", encoded(t, demoFile(func(f *rankfile.File) { f.Entries[2].Scores[0].Evidence = []string{"nope"} })), importer, "entries[2].scores[0].evidence[0]"},
		{"control character", encoded(t, demoFile(func(f *rankfile.File) { f.Entries[1].Name.En = "Ali\x07yun" })), importer, "entries[1].name"},
		{"unknown field", []byte(`{"format":"crossrank.ranking/v1","slug":"x","methodology":{},"extra":1}`), importer, ""},
		{"40 MB", huge, importer, ""},
		{"invalid UTF-8", badUTF8, importer, ""},
		{"not an editor", encoded(t, demo.File()), reviewer, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := s.last(t, ctx)
			f, err := rankfile.Decode(bytes.NewReader(c.raw))
			if err == nil {
				_, err = rankfile.Import(ctx, s.h, f, c.as)
			}
			if err == nil {
				t.Fatal("accepted")
			}
			t.Log(err)
			if c.field != "" && !bytes.Contains([]byte(err.Error()), []byte(c.field)) {
				t.Errorf("error %q does not name %s", err, c.field)
			}
			if n := s.last(t, ctx); n != before {
				t.Errorf("stored events: stream %d → %d", before, n)
			}
		})
	}
}

func TestDemoFileEntriesCiteTheirEvidence(t *testing.T) {
	f := demo.File()
	for i, e := range f.Entries {
		keys := map[string]bool{}
		for _, ev := range e.Evidence {
			keys[ev.Key] = true
		}
		for j, s := range e.Scores {
			for _, k := range s.Evidence {
				if !keys[k] {
					t.Errorf("entries[%d].scores[%d] cites %q, not an evidence key of %s", i, j, k, e.Slug)
				}
			}
		}
	}
}
