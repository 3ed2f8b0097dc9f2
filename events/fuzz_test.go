package events_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

// headerText flattens a header into "key: value" lines, the fuzzer's input.
func headerText(h events.Header) string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		for _, v := range h[k] {
			b.WriteString(k + ": " + v + "\n")
		}
	}
	return b.String()
}

func parseHeaderText(s string) events.Header {
	h := events.Header{}
	for line := range strings.SplitSeq(s, "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if ok {
			h[k] = append(h[k], v)
		}
	}
	return h
}

// FuzzDecode feeds Decode what any NATS client could have put in the
// stream. Decode must never panic; it either fails with ErrMalformed or
// ErrUnknownType naming the sequence, or returns an event that is valid,
// hashes to JSON, and survives another encode/decode unchanged.
func FuzzDecode(f *testing.F) {
	at := time.Date(2026, 3, 14, 9, 26, 53, 589793238, time.UTC)
	for _, typ := range []string{events.TypeVoteCast, events.TypeEditionPublished, events.TypeRankingDefined, events.TypeUserRegistered} {
		e, err := events.New(events.NewID(at), at, "alice", "agg-1", samples[typ])
		if err != nil {
			f.Fatal(err)
		}
		e.CorrelationID = "corr"
		subject, h, body, err := events.Encode(e)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(subject, headerText(h), body, uint64(7))
		f.Add("", headerText(h), body, uint64(0))
	}
	subject, h := v1Message("id-1")
	body, err := os.ReadFile(filepath.Join("testdata", "v1", "evidence_added_document.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(subject, headerText(h), body, uint64(3))
	f.Add(subject, headerText(h), []byte(`{"source":7}`), uint64(3))
	f.Add("crossrank.proposal.p-1.vote_cast", "ce-specversion: 1.0\nce-type: crossrank.proposal.vote_cast.v1\n", []byte("null"), uint64(1))

	f.Fuzz(func(t *testing.T, subject, headers string, body []byte, seq uint64) {
		e, err := events.Decode(subject, parseHeaderText(headers), body, seq)
		if err != nil {
			if !errors.Is(err, events.ErrMalformed) && !errors.Is(err, events.ErrUnknownType) {
				t.Fatalf("error wraps neither ErrMalformed nor ErrUnknownType: %v", err)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("seq %d", seq)) {
				t.Fatalf("error does not name seq %d: %v", seq, err)
			}
			return
		}
		if e.Sequence != seq || !events.ValidID(e.Subject) || e.Data == nil || e.Time.Location() != time.UTC {
			t.Fatalf("decoded an invalid event: %+v", e)
		}
		if _, _, _, err := events.ParseType(e.Type); err != nil {
			t.Fatalf("decoded type %q does not parse: %v", e.Type, err)
		}
		if c := events.Canonical(e); !json.Valid(c) {
			t.Fatalf("Canonical is not JSON: %q", c)
		}
		if e.StoredType != e.Type {
			return // upcast: re-encoding writes the current type over the old body
		}
		subject2, h2, body2, err := events.Encode(e)
		if err != nil {
			t.Fatalf("Encode of a decoded event: %v", err)
		}
		again, err := events.Decode(subject2, h2, body2, seq)
		if err != nil {
			t.Fatalf("Decode of a re-encoded event: %v", err)
		}
		if !reflect.DeepEqual(again, e) {
			t.Fatalf("re-encoding changed the event:\n got %+v\nwant %+v", again, e)
		}
	})
}
