package events_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/crossrank/crossrank/events"
)

// TestEditionPartV1 decodes the v1 fixtures of an edition split into
// parts: a part, and a head that records its size in place of its lists.
// Both decode to the payloads below and encode back to the stored bytes,
// so a stored large edition reads and hashes the same in every later
// version.
func TestEditionPartV1(t *testing.T) {
	pid := "019a4f10-0000-7000-8000-000000000002"
	eight := 8
	for _, tt := range []struct {
		name, event, typ string
		want             any
	}{
		{"part_recorded", "part_recorded", events.TypeEditionPartRecorded, &events.EditionPartRecorded{Number: 1, Part: 2, Proposals: []string{pid},
			NewEntries: []events.PublishedEntry{{Slug: "autodl", Name: events.Text{Zh: "AutoDL", En: "AutoDL"}, Category: "marketplace", Proposal: pid}},
			Changes:    []events.AppliedChange{{Proposal: pid, Entry: "autodl", Target: "score:price", ToScore: &eight, Evidence: []string{"e1"}}}}},
		{"published_split", "published", events.TypeEditionPublished, &events.EditionPublished{Ranking: "gpu-cloud", Number: 1, PreviewHash: "aa", SnapshotHash: "bb",
			Size: &events.EditionSize{Parts: 2, Proposals: 2, NewEntries: 2, Changes: 2}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// The headers of a stored v1 event; the subject, type and body
			// are this fixture's.
			_, h, _ := storedV1(t, "edition", "part_recorded", "gpu-cloud")
			subject := "crossrank.edition.gpu-cloud." + tt.event
			h[events.HeaderType] = []string{tt.typ}
			body, err := os.ReadFile(filepath.Join("testdata", "v1", tt.name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			body = bytes.TrimSpace(body)
			ev, err := events.Decode(subject, h, body, 7)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ev.Data, tt.want) {
				t.Fatalf("decoded %#v, want %#v", ev.Data, tt.want)
			}
			again, err := json.Marshal(ev.Data)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, body) {
				t.Fatalf("encodes as\n%s\nstored as\n%s", again, body)
			}
		})
	}
}

// edition returns an edition of n new entries with c changes each.
func edition(n, c int) events.EditionPublished {
	d := events.EditionPublished{Ranking: "big", Number: 1, PreviewHash: "aa", SnapshotHash: "bb"}
	for i := range n {
		id := fmt.Sprintf("019a4f10-0000-7000-8000-%012d", i)
		slug := fmt.Sprintf("entry-%05d", i)
		d.Proposals = append(d.Proposals, id)
		d.NewEntries = append(d.NewEntries, events.PublishedEntry{Slug: slug, Name: events.Text{Zh: "条目 " + slug, En: "Entry " + slug}, Category: "c", Proposal: id})
		for k := range c {
			s := k % 11
			d.Changes = append(d.Changes, events.AppliedChange{Proposal: id, Entry: slug, Target: fmt.Sprintf("score:crit-%d", k), ToScore: &s, Evidence: []string{"e1", "e2"}})
		}
	}
	return d
}

// TestSplitEdition splits a 10,000 × 10 edition into parts within the
// budget, in order, and joins them back into the same edition; a small
// edition stays one event, as every edition before parts existed.
func TestSplitEdition(t *testing.T) {
	small := edition(3, 2)
	head, parts, err := events.SplitEdition(small, events.EditionPartBudget)
	if err != nil || parts != nil || !reflect.DeepEqual(head, small) {
		t.Fatalf("small edition: %d parts, err %v", len(parts), err)
	}
	big := edition(10_000, 10)
	head, parts, err = events.SplitEdition(big, events.EditionPartBudget)
	if err != nil {
		t.Fatal(err)
	}
	want := events.EditionSize{Parts: len(parts), Proposals: 10_000, NewEntries: 10_000, Changes: 100_000}
	if head.Size == nil || *head.Size != want || head.Proposals != nil || head.Changes != nil || head.NewEntries != nil {
		t.Fatalf("head %+v, want size %+v and no lists", head.Size, want)
	}
	for i, p := range parts {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > events.EditionPartBudget {
			t.Fatalf("part %d: %d bytes > %d", i+1, len(b), events.EditionPartBudget)
		}
		if p.Part != i+1 || p.Number != 1 {
			t.Fatalf("part %d numbered %d of edition %d", i+1, p.Part, p.Number)
		}
	}
	if b, _ := json.Marshal(head); len(b) > events.EditionPartBudget {
		t.Fatalf("head: %d bytes", len(b))
	}
	if got := events.JoinEdition(head, parts); !reflect.DeepEqual(got, big) {
		t.Fatal("joined parts differ from the edition")
	}
	// Editions joins what an aggregate's events hold, edition by edition.
	var evs []events.Event
	for i := range parts {
		evs = append(evs, events.Event{Data: &parts[i]})
	}
	evs = append(evs, events.Event{Data: &head}, events.Event{Data: &small})
	got := events.Editions(evs)
	if len(got) != 2 || !reflect.DeepEqual(got[0], big) || !reflect.DeepEqual(got[1], small) {
		t.Fatalf("Editions: %d editions", len(got))
	}
}
