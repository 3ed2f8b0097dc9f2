package bundle_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
)

// demoEditions seeds the demo ranking (edition 1), publishes its held-back
// cross-validated proposal as edition 2, and as edition 3 a proposal whose
// evidence cites a page with a URL, which the capture worker records.
func demoEditions(t *testing.T) events.Store {
	t.Helper()
	ctx := testContext(t)
	store := jstest.Start(t).Store
	h := handler.New(store, nil)
	fakeHash := func(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }
	if _, err := demo.Seed(ctx, h, demo.Options{Password: "pw", HashPassword: fakeHash, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	publishAll(t, h, demo.RankingSlug, []string{"demo-qingjiao-2"})
	ed, err := h.Edition(ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	const id, entry, crit = "bundle-p3", "qingjiao", demo.CritCluster
	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	do := func(_ handler.Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	do(h.OpenProposal(ctx, editor, domain.OpenProposal{ID: id, Ranking: demo.RankingSlug, Entry: entry, Title: "Cluster networking"}))
	do(h.AddEvidence(ctx, editor, domain.AddEvidence{Proposal: id, Claim: events.Text{En: "Offers RDMA clusters"}, SourceURL: "https://example.com/rdma",
		Excerpt: "RDMA clusters", ObservedOn: time.Now().Format(time.DateOnly)}))
	do(h.ProposeScore(ctx, editor, domain.ProposeScore{Proposal: id, Criterion: crit, To: (ed.Entries[entry].Scores[crit] + 1) % 11,
		Rationale: events.Text{En: "The page says so."}, Evidence: []string{"e1"}}))
	do(h.Submit(ctx, editor, domain.Submit{Proposal: id}))
	for _, r := range []string{"reviewer1", "reviewer2"} {
		do(h.CastVote(ctx, domain.Actor{Name: r, Roles: []string{domain.RoleReviewer}}, domain.CastVote{Proposal: id, Revision: 1,
			Verdict: events.Approve, VerifiedEvidence: []string{"e1"}}))
	}
	sum := sha256.Sum256([]byte("the captured page"))
	do(h.RecordCapture(ctx, domain.System(), domain.RecordCapture{Proposal: id, Evidence: "e1", At: time.Now(),
		FinalURL: "https://example.com/rdma", Status: 200, ContentType: "text/html", Size: 17, SHA256: hex.EncodeToString(sum[:])}))
	publishAll(t, h, demo.RankingSlug, []string{id})
	return store
}

// TestDemoEditionsVerify: the bundle of each of the demo's editions
// verifies offline — signature, digests, every edition's snapshot
// recomputed, evidence and captures — against the key it carries and
// against that key pinned, is the same bytes each time it is written, and
// lists the capture edition 3's evidence cites.
func TestDemoEditionsVerify(t *testing.T) {
	store := demoEditions(t)
	key := newKey(1)
	for n := 1; n <= 3; n++ {
		z := write(t, store, key, demo.RankingSlug, n)
		rep, err := verify(z, bundle.Options{})
		if err != nil {
			t.Fatalf("edition %d: %v", n, err)
		}
		want := []string{bundle.CheckManifest, bundle.CheckSignature, bundle.CheckFiles, bundle.CheckEvents, bundle.CheckSnapshot, bundle.CheckEvidence, bundle.CheckCaptures}
		var got []string
		for _, c := range rep.Checks {
			got = append(got, c.Name)
			t.Logf("edition %d: %s: %s", n, c.Name, c.Detail)
		}
		if !slices.Equal(got, want) || rep.Pinned || !strings.Contains(detail(rep, bundle.CheckSignature), "--key") {
			t.Errorf("edition %d: checks %v (pinned %v), want %v, unpinned and saying so", n, got, rep.Pinned, want)
		}
		if rep.Manifest.Edition != n || rep.Manifest.Key.Kid != bundle.PublicJWK(key.Public().(ed25519.PublicKey)).Kid {
			t.Errorf("edition %d: manifest %+v", n, rep.Manifest)
		}
		if _, err := verify(z, bundle.Options{Key: key.Public().(ed25519.PublicKey)}); err != nil {
			t.Errorf("edition %d, key pinned: %v", n, err)
		}
		if again := write(t, store, key, demo.RankingSlug, n); !bytes.Equal(again, z) {
			t.Errorf("edition %d: written twice, the bytes differ", n)
		}
		caps := strings.Count(string(read(t, z, bundle.CapturesFile)), "\n")
		if (n == 3) != (caps == 1) {
			t.Errorf("edition %d lists %d captures", n, caps)
		}
	}
	if _, err := bundle.NewProducer(store, key).Prepare(testContext(t), demo.RankingSlug, 4); !errors.Is(err, bundle.ErrNoEdition) {
		t.Errorf("edition 4: %v, want ErrNoEdition", err)
	}
}

// TestTamperedBundlesFail: a changed score, a removed evidence item, a
// forged signature and a wrong snapshot hash each fail, naming what; a
// tampered bundle signed again by another key passes the signature only
// when no key is pinned, and still fails what it changed.
func TestTamperedBundlesFail(t *testing.T) {
	store := demoEditions(t)
	key := newKey(1)
	z := write(t, store, key, demo.RankingSlug, 3)
	score := regexp.MustCompile(`"to_score":(\d+)`)
	tamperScore := func(name string, body []byte) []byte {
		if name != bundle.EventsFile {
			return body
		}
		done := false
		return score.ReplaceAllFunc(body, func(m []byte) []byte {
			if done {
				return m
			}
			done = true
			if string(m) == `"to_score":0` {
				return []byte(`"to_score":10`)
			}
			return []byte(`"to_score":0`)
		})
	}
	removeEvidence := func(name string, body []byte) []byte {
		if name != bundle.EvidenceFile {
			return body
		}
		lines := strings.SplitAfter(string(body), "\n")
		i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, events.TypeEvidenceAdded) })
		return []byte(strings.Join(slices.Delete(lines, i, i+1), ""))
	}
	forgeSignature := func(name string, body []byte) []byte {
		if name != bundle.SignatureFile {
			return body
		}
		var s bundle.Signature
		json.Unmarshal(body, &s)
		raw, _ := base64.StdEncoding.DecodeString(s.Value)
		raw[0] ^= 1
		s.Value = base64.StdEncoding.EncodeToString(raw)
		b, _ := json.Marshal(s)
		return b
	}
	wrongHash := func(name string, body []byte) []byte {
		if name != bundle.ManifestFile {
			return body
		}
		var m bundle.Manifest
		json.Unmarshal(body, &m)
		m.SnapshotHash = strings.Repeat("0", 64)
		b, _ := json.Marshal(m)
		return b
	}
	for _, c := range []struct {
		name  string
		edit  func(string, []byte) []byte
		fails []string
		says  map[string]string // check → words its detail must hold
	}{
		{"changed score", tamperScore, []string{bundle.CheckFiles, bundle.CheckSnapshot},
			map[string]string{bundle.CheckFiles: bundle.EventsFile, bundle.CheckSnapshot: "the events recompute"}},
		{"removed evidence", removeEvidence, []string{bundle.CheckFiles, bundle.CheckEvidence},
			map[string]string{bundle.CheckFiles: bundle.EvidenceFile, bundle.CheckEvidence: "which the bundle does not hold"}},
		{"forged signature", forgeSignature, []string{bundle.CheckSignature},
			map[string]string{bundle.CheckSignature: "does not match manifest.json"}},
		{"wrong snapshot hash", wrongHash, []string{bundle.CheckSignature, bundle.CheckSnapshot},
			map[string]string{bundle.CheckSnapshot: "the manifest says snapshot 000000000000"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := verify(rewrite(t, z, c.edit), bundle.Options{})
			if !errors.Is(err, bundle.ErrInvalid) {
				t.Fatalf("verify: %v, want ErrInvalid", err)
			}
			if got := failed(rep); !slices.Equal(got, c.fails) {
				t.Errorf("failed %v, want %v: %v", got, c.fails, err)
			}
			for check, words := range c.says {
				if !strings.Contains(detail(rep, check), words) {
					t.Errorf("%s says %q, want it to hold %q", check, detail(rep, check), words)
				}
			}
		})
	}
	t.Run("signed again by another key", func(t *testing.T) {
		other := newKey(2)
		forged := resign(t, rewrite(t, z, tamperScore), other)
		rep, err := verify(forged, bundle.Options{})
		if got := failed(rep); !slices.Equal(got, []string{bundle.CheckSnapshot}) {
			t.Errorf("unpinned: failed %v, want only the snapshot: %v", got, err)
		}
		rep, err = verify(forged, bundle.Options{Key: key.Public().(ed25519.PublicKey)})
		if got := failed(rep); !slices.Equal(got, []string{bundle.CheckSignature, bundle.CheckSnapshot}) || !strings.Contains(err.Error(), "not the pinned key") {
			t.Errorf("pinned: failed %v, want the signature and the snapshot: %v", got, err)
		}
	})
}

// resign lists z's files with their new digests and signs the manifest
// with key, as someone who changed a bundle and holds a key of their own
// would.
func resign(t *testing.T, z []byte, key ed25519.PrivateKey) []byte {
	t.Helper()
	var m bundle.Manifest
	if err := json.Unmarshal(read(t, z, bundle.ManifestFile), &m); err != nil {
		t.Fatal(err)
	}
	m.Key = bundle.PublicJWK(key.Public().(ed25519.PublicKey))
	for i, f := range m.Files {
		body := read(t, z, f.Name)
		sum := sha256.Sum256(body)
		m.Files[i].SHA256, m.Files[i].Size = hex.EncodeToString(sum[:]), int64(len(body))
	}
	mb, _ := json.Marshal(m)
	sb, _ := json.Marshal(bundle.Signature{Alg: "EdDSA", KeyID: m.Key.Kid, Value: base64.StdEncoding.EncodeToString(ed25519.Sign(key, mb))})
	return rewrite(t, z, func(name string, body []byte) []byte {
		switch name {
		case bundle.ManifestFile:
			return mb
		case bundle.SignatureFile:
			return sb
		}
		return body
	})
}
