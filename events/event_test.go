package events_test

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

func TestParseType(t *testing.T) {
	tests := []struct {
		in      string
		kind    events.Kind
		name    string
		version int
		ok      bool
	}{
		{"crossrank.proposal.vote_cast.v1", events.KindProposal, "vote_cast", 1, true},
		{"crossrank.proposal.evidence_added.v2", events.KindProposal, "evidence_added", 2, true},
		{"crossrank.user.token_issued.v12", events.KindUser, "token_issued", 12, true},
		{"crossrank.proposal.vote_cast", "", "", 0, false},
		{"crossrank.proposal.vote_cast.1", "", "", 0, false},
		{"crossrank.proposal.vote_cast.v0", "", "", 0, false},
		{"crossrank.proposal.vote_cast.v-1", "", "", 0, false},
		{"crossrank.proposal.vote_cast.v+1", "", "", 0, false},
		{"crossrank.proposal.vote_cast.v01", "", "", 0, false},
		{"crossrank.proposal.vote_cast.v1x", "", "", 0, false},
		{"crossrank.proposal.vote_cast.v 1", "", "", 0, false},
		{"crossrank.proposal.vote_cast.v99999999999999999999", "", "", 0, false},
		{"crossrank..vote_cast.v1", "", "", 0, false},
		{"crossrank.proposal..v1", "", "", 0, false},
		{"crossrank.*.vote_cast.v1", "", "", 0, false},
		{"crossrank.proposal.>.v1", "", "", 0, false},
		{"crossrank.Proposal.vote_cast.v1", "", "", 0, false},
		{"crossrank.proposal.vote cast.v1", "", "", 0, false},
		{"other.proposal.vote_cast.v1", "", "", 0, false},
		{"crossrank.proposal.vote_cast.v1.extra", "", "", 0, false},
		{"", "", "", 0, false},
	}
	for _, tt := range tests {
		kind, name, version, err := events.ParseType(tt.in)
		if tt.ok != (err == nil) || kind != tt.kind || name != tt.name || version != tt.version {
			t.Errorf("ParseType(%q) = %q, %q, %d, %v; want %q, %q, %d, ok=%v",
				tt.in, kind, name, version, err, tt.kind, tt.name, tt.version, tt.ok)
		}
		if err != nil && !errors.Is(err, events.ErrUnknownType) {
			t.Errorf("ParseType(%q) error %v does not wrap ErrUnknownType", tt.in, err)
		}
	}
	for _, typ := range events.Types() {
		if _, _, _, err := events.ParseType(typ); err != nil {
			t.Errorf("catalog type %q does not parse: %v", typ, err)
		}
	}
	// Every event's Kind and Aggregate parse its type.
	e := events.Event{Type: "crossrank.proposal.vote_cast.v1", Subject: "p1"}
	if n := testing.AllocsPerRun(100, func() { e.Aggregate() }); n != 0 {
		t.Errorf("Event.Aggregate allocates %v times, want 0", n)
	}
}

func TestValidID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"gpu-cloud", true},
		{"p_1", true},
		{"0190a5d0-ac96-774b-bcce-b302099a8057", true},
		{strings.Repeat("a", 80), true},
		{strings.Repeat("a", 81), false},
		{"", false},
		{"GPU", false},
		{"a.b", false},
		{"*", false},
		{">", false},
		{"a b", false},
		{"算力", false},
		{"a\x00", false},
	}
	for _, tt := range tests {
		if got := events.ValidID(tt.id); got != tt.want {
			t.Errorf("ValidID(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}

var uuidV7 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestNewID(t *testing.T) {
	at := time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)
	id := events.NewID(at)
	if !uuidV7.MatchString(id) {
		t.Fatalf("NewID = %q, not a UUIDv7", id)
	}
	if !events.ValidID(id) {
		t.Errorf("NewID %q is not a valid aggregate id", id)
	}
	// The first 48 bits are the Unix milliseconds.
	if got, want := strings.ReplaceAll(id[:13], "-", ""), "019cebab8748"; got != want {
		t.Errorf("timestamp bits %s, want %s (%d ms)", got, want, at.UnixMilli())
	}
	seen := map[string]bool{}
	var ids []string
	for i := range 1000 {
		id := events.NewID(at.Add(time.Duration(i) * time.Millisecond))
		if seen[id] {
			t.Fatalf("NewID repeated %s", id)
		}
		seen[id] = true
		ids = append(ids, id)
	}
	if !slices.IsSorted(ids) {
		t.Error("ids made at increasing milliseconds do not sort in creation order")
	}
	if a, b := events.NewID(at), events.NewID(at); a == b {
		t.Errorf("two ids in the same millisecond are equal: %s", a)
	}
}

func TestAggregate(t *testing.T) {
	e, err := events.New("id-1", time.Unix(0, 0), "alice", "p-7", &events.VoteCast{Revision: 1, Verdict: events.Approve})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.Aggregate(), (events.Aggregate{Kind: events.KindProposal, ID: "p-7"}); got != want {
		t.Errorf("Aggregate() = %v, want %v", got, want)
	}
	if got, want := e.NATSSubject(), "crossrank.proposal.p-7.vote_cast"; got != want {
		t.Errorf("NATSSubject() = %q, want %q", got, want)
	}
	if got, want := e.Aggregate().Filter(), "crossrank.proposal.p-7.>"; got != want {
		t.Errorf("Filter() = %q, want %q", got, want)
	}
	if got, want := e.Aggregate().String(), "proposal/p-7"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestTextIn(t *testing.T) {
	tests := []struct {
		text events.Text
		lang string
		want string
	}{
		{events.Text{Zh: "算力", En: "Compute"}, "zh", "算力"},
		{events.Text{Zh: "算力", En: "Compute"}, "en", "Compute"},
		{events.Text{Zh: "算力"}, "en", "算力"},
		{events.Text{En: "Compute"}, "zh", "Compute"},
		{events.Text{}, "en", ""},
	}
	for _, tt := range tests {
		if got := tt.text.In(tt.lang); got != tt.want {
			t.Errorf("%+v.In(%q) = %q, want %q", tt.text, tt.lang, got, tt.want)
		}
	}
}
