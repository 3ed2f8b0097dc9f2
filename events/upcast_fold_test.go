package events_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

// storedV1 returns the message of a v1 event of kind/name on subject id as
// an older Crossrank stored it, with its body from testdata/v1.
func storedV1(t *testing.T, kind, name, id string) (string, events.Header, []byte) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", "v1", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return "crossrank." + kind + "." + id + "." + name, events.Header{
		events.HeaderSpecVersion: {"1.0"},
		events.HeaderID:          {"01890a5d-ac96-774b-bcce-b302099a8057"},
		events.HeaderSource:      {"/crossrank"},
		events.HeaderType:        {"crossrank." + kind + "." + name + ".v1"},
		events.HeaderSubject:     {id},
		events.HeaderTime:        {"2025-11-03T08:00:00Z"},
		events.HeaderActor:       {"alice"},
		events.HeaderContentType: {"application/json"},
	}, body
}

// TestUpcastFoldedV1 decodes the v1 fixtures of the four types whose
// version moved when a status change, a methodology or revoked tokens were
// folded into them: each comes out as its v2 payload without the new
// field, its stored type and body (what the audit chain hashes) exactly as
// written, and it hashes as it did before v2 existed.
func TestUpcastFoldedV1(t *testing.T) {
	for _, tt := range []struct {
		kind, name, id, current string
		want                    any
	}{
		{"proposal", "vote_cast", "p-1", events.TypeVoteCast, &events.VoteCast{
			Revision: 2, Verdict: events.Approve, VerifiedEvidence: []string{"e1", "e2"}, Comment: "价格已核对"}},
		{"proposal", "veto_dismissed", "p-1", events.TypeVetoDismissed, &events.VetoDismissed{
			Voter: "rosa", Reason: "the source was refreshed"}},
		{"proposal", "opened", "p-1", events.TypeProposalOpened, &events.ProposalOpened{
			Ranking: "gpu-cloud", Entry: "autodl", NewEntry: true, Title: "收录 AutoDL"}},
		{"user", "password_changed", "u-1", events.TypePasswordChanged, &events.PasswordChanged{
			PasswordHash: "$argon2id$v=19$m=65536,t=1,p=4$c2FsdA$b3RoZXI"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			subject, h, body := storedV1(t, tt.kind, tt.name, tt.id)
			v1 := h[events.HeaderType][0]
			// opened is v3 since its carried rationale became Text.
			if !strings.HasSuffix(tt.current, ".v2") && tt.current != "crossrank.proposal.opened.v3" {
				t.Fatalf("current type %s, want v2", tt.current)
			}
			e, err := events.Decode(subject, h, body, 12)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if e.Type != tt.current || e.StoredType != v1 {
				t.Errorf("type %q stored as %q, want %q stored as %q", e.Type, e.StoredType, tt.current, v1)
			}
			if !reflect.DeepEqual(e.Data, tt.want) {
				t.Errorf("upcast payload:\n got %+v\nwant %+v", e.Data, tt.want)
			}
			if !bytes.Equal(e.Raw, body) {
				t.Errorf("Raw is not the stored v1 body:\n got %s\nwant %s", e.Raw, body)
			}
			// The same event built as a v1 writer built it hashes alike:
			// upcasting never reaches the chain.
			built, err := events.New(e.ID, e.Time, e.Actor, e.Subject, tt.want)
			if err != nil {
				t.Fatal(err)
			}
			if built, err = built.WrittenAs(v1); err != nil {
				t.Fatal(err)
			}
			built.Sequence = 12
			if got, want := events.Canonical(e), events.Canonical(built); !bytes.Equal(got, want) {
				t.Errorf("canonical bytes:\n got %s\nwant %s", got, want)
			}
			if !bytes.Contains(events.Canonical(e), []byte(`"type":"`+v1+`"`)) {
				t.Errorf("canonical bytes do not name the stored type %s: %s", v1, events.Canonical(e))
			}
			if vs := events.Versions(tt.current); len(vs) < 2 || vs[0] != v1 || vs[len(vs)-1] != tt.current ||
				(len(vs) > 2) != (tt.name == "opened") {
				t.Errorf("Versions(%s) = %v", tt.current, vs)
			}
			if cur, ok := events.Current(v1); !ok || cur != tt.current {
				t.Errorf("Current(%s) = %q, %v", v1, cur, ok)
			}
		})
	}
}

// TestUnknownVersionRefused is what a Crossrank older than a type's
// version does with it: a vote_cast.v3 that this catalog does not know
// stops the decode by name and sequence (ErrUnknownType), whatever its
// body, instead of being read as the v2 it resembles.
func TestUnknownVersionRefused(t *testing.T) {
	subject, h, body := storedV1(t, "proposal", "vote_cast", "p-1")
	h[events.HeaderType] = []string{"crossrank.proposal.vote_cast.v3"}
	_, err := events.Decode(subject, h, body, 41)
	if !errors.Is(err, events.ErrUnknownType) {
		t.Fatalf("Decode of vote_cast.v3: error = %v, want ErrUnknownType", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "seq 41") || !strings.Contains(msg, "vote_cast.v3") {
		t.Errorf("error %q does not name the sequence and the type", msg)
	}
	if _, ok := events.Current("crossrank.proposal.vote_cast.v3"); ok {
		t.Error("Current knows vote_cast.v3")
	}
	if vs := events.Versions("crossrank.proposal.vote_cast.v3"); vs != nil {
		t.Errorf("Versions(vote_cast.v3) = %v, want none", vs)
	}
}

// TestWrittenAs: an event is written as an older version only when that
// version reads as the event's type with the body unchanged.
func TestWrittenAs(t *testing.T) {
	vote, err := events.New("id-1", time.Unix(0, 0), "bob", "p-1", &events.VoteCast{Revision: 1, Verdict: events.Approve, VerifiedEvidence: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	old, err := vote.WrittenAs("crossrank.proposal.vote_cast.v1")
	if err != nil || old.Type != "crossrank.proposal.vote_cast.v1" || old.StoredType != old.Type || !bytes.Equal(old.Raw, vote.Raw) {
		t.Fatalf("WrittenAs(v1) = %s stored as %s, %v", old.Type, old.StoredType, err)
	}
	for _, typ := range []string{"crossrank.proposal.opened.v1", "crossrank.proposal.vote_cast.v3"} {
		if _, err := vote.WrittenAs(typ); !errors.Is(err, events.ErrUnknownType) {
			t.Errorf("a vote WrittenAs(%s): error = %v, want ErrUnknownType", typ, err)
		}
	}
	ev, err := events.New("id-2", time.Unix(0, 0), "bob", "p-1", &events.EvidenceAdded{EvidenceID: "e1", SourceName: "doc"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.WrittenAs("crossrank.proposal.evidence_added.v1"); err == nil {
		t.Error("evidence written as v1, whose upcaster rewrites the body")
	}
}
