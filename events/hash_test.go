package events_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

var update = flag.Bool("update", false, "rewrite golden files")

// chainFixture is three stored events, fixed to the byte: the audit chain
// over them must never change, or every published audit head breaks.
func chainFixture(t *testing.T) []events.Event {
	t.Helper()
	at := time.Date(2026, 3, 14, 9, 26, 53, 589793238, time.UTC)
	mk := func(seq uint64, id, actor, subject string, payload any) events.Event {
		e, err := events.New(id, at.Add(time.Duration(seq)*time.Second), actor, subject, payload)
		if err != nil {
			t.Fatal(err)
		}
		e.Sequence = seq
		return e
	}
	// The proposal and the vote are v1 events, as Crossrank stored them
	// before opened and vote_cast moved to v2: they hash as they always did.
	v1 := func(e events.Event, typ string) events.Event {
		e, err := e.WrittenAs(typ)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	opened := v1(mk(1, "0195eb2c-1a00-7000-8000-000000000001", "alice", "p-1",
		&events.ProposalOpened{Ranking: "gpu-cloud", Entry: "autodl", NewEntry: true, Title: "收录 AutoDL <new>"}),
		"crossrank.proposal.opened.v1")
	vote := v1(mk(2, "0195eb2c-1a00-7000-8000-000000000002", "bob", "p-1",
		&events.VoteCast{Revision: 1, Verdict: events.Approve, VerifiedEvidence: []string{"e1"}, Comment: "价格 & 来源已核对"}),
		"crossrank.proposal.vote_cast.v1")
	vote.CorrelationID, vote.CausationID = "req-42", opened.ID
	// A v1 event as an older version stored it: hashed with its stored type
	// and body, whatever the upcaster makes of it today.
	old := mk(3, "0195eb2c-1a00-7000-8000-000000000003", "carol", "p-1", &events.EvidenceAdded{})
	old.StoredType = "crossrank.proposal.evidence_added.v1"
	old.Raw = json.RawMessage("{ \"evidence_id\": \"e1\",\n  \"source\": \"https://example.com\" }")
	return []events.Event{opened, vote, old}
}

// TestCanonicalGolden pins the canonical bytes of each fixture event.
func TestCanonicalGolden(t *testing.T) {
	var got []byte
	for _, e := range chainFixture(t) {
		c := events.Canonical(e)
		if !json.Valid(c) {
			t.Errorf("Canonical(seq %d) is not JSON: %s", e.Sequence, c)
		}
		got = append(append(got, c...), '\n')
	}
	golden := filepath.Join("testdata", "canonical.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("canonical bytes changed:\n got %s\nwant %s", got, want)
	}
}

// TestChainHashGolden pins the audit chain over the fixture.
func TestChainHashGolden(t *testing.T) {
	// Checked independently: sha256(prev hex ‖ line) over canonical.golden.
	want := []string{
		"b856e1fd82a7cfe2812f96b85ffafc6128617c9df5fcdce35058b3b82057202c",
		"86b66910177c50379eb6ec1238ec83fb173df0fc02e93866bac173112939b672",
		"5ba541791bdf20b002257dcb3f06e25d00d670b47a5e5e69c8a39c2a2f96e6d2",
	}
	head := ""
	for i, e := range chainFixture(t) {
		head = events.ChainHash(head, e)
		if head != want[i] {
			t.Errorf("chain head after seq %d = %s, want %s", e.Sequence, head, want[i])
		}
	}
}

// TestCanonicalStable: what is not part of the stored event does not change
// the hash, and what is does.
func TestCanonicalStable(t *testing.T) {
	base := chainFixture(t)[1]
	same := func(name string, f func(e *events.Event)) {
		e := base
		f(&e)
		if string(events.Canonical(e)) != string(events.Canonical(base)) {
			t.Errorf("%s changed the canonical bytes", name)
		}
	}
	differs := func(name string, f func(e *events.Event)) {
		e := base
		f(&e)
		if events.ChainHash("", e) == events.ChainHash("", base) {
			t.Errorf("%s did not change the hash", name)
		}
	}
	same("a time zone", func(e *events.Event) { e.Time = e.Time.In(time.FixedZone("CST", 8*3600)) })
	same("whitespace in the body", func(e *events.Event) {
		e.Raw = json.RawMessage("{\n\t" + string(e.Raw[1:len(e.Raw)-1]) + "\n}")
	})
	same("the decoded payload", func(e *events.Event) { e.Data = nil })
	same("the current type (after upcasting)", func(e *events.Event) { e.Type = "crossrank.proposal.vote_cast.v9" })
	differs("the source", func(e *events.Event) { e.Source = "/elsewhere" })
	differs("the sequence", func(e *events.Event) { e.Sequence++ })
	differs("the actor", func(e *events.Event) { e.Actor = "mallory" })
	differs("the stored type", func(e *events.Event) { e.StoredType = "crossrank.proposal.vote_cast.v2" })
	differs("the body", func(e *events.Event) { e.Raw = json.RawMessage(`{"revision":2}`) })
	differs("a nanosecond", func(e *events.Event) { e.Time = e.Time.Add(1) })
	differs("the causation id", func(e *events.Event) { e.CausationID = "" })
	differs("how the actor signed in", func(e *events.Event) { e.AuthVia = events.ViaSession })
	if events.ChainHash("a", base) == events.ChainHash("b", base) {
		t.Error("the previous hash does not change the next")
	}
}

// TestCanonicalAuthVia pins where the authvia attribute goes: after
// causationid, and only when the event has one. The fixture events have
// none, so canonical.golden and the chain heads above prove events stored
// before the attribute existed hash as they always did.
func TestCanonicalAuthVia(t *testing.T) {
	e := chainFixture(t)[1]
	e.AuthVia = events.Via{Method: events.ViaToken, TokenID: "0195eb2c-1a00-7000-8000-0000000000aa", TokenName: "ci 机器人"}.String()
	want := `{"seq":2,"id":"0195eb2c-1a00-7000-8000-000000000002","source":"/crossrank","type":"crossrank.proposal.vote_cast.v1",` +
		`"subject":"p-1","datacontenttype":"application/json","time":"2026-03-14T09:26:55.589793238Z","actor":"bob",` +
		`"correlationid":"req-42","causationid":"0195eb2c-1a00-7000-8000-000000000001",` +
		`"authvia":"token;id=0195eb2c-1a00-7000-8000-0000000000aa;name=ci+%E6%9C%BA%E5%99%A8%E4%BA%BA",` +
		`"data":{"revision":1,"verdict":"approve","verified_evidence":["e1"],"comment":"价格 \u0026 来源已核对"}}`
	if got := string(events.Canonical(e)); got != want {
		t.Errorf("canonical bytes with authvia:\n got %s\nwant %s", got, want)
	}
}
