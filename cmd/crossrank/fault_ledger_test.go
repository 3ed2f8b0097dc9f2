package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/events"
)

// commandShapes are the event types each kind of load request stores, in
// order: a command is stored whole or not at all.
var commandShapes = map[string][][]string{
	"open-new": {{events.TypeEntryCreated, events.TypeProposalOpened}, {events.TypeProposalOpened, events.TypeEntryCreated}},
	"open":     {{events.TypeProposalOpened}},
	"evidence": {{events.TypeEvidenceAdded}},
	"change":   {{events.TypeScoreChangeProposed}},
	"submit":   {{events.TypeProposalSubmitted}},
	// A vote that completes the quorum carries the cross-validation
	// (events.Transition): one event, whatever it does.
	"vote": {{events.TypeVoteCast}},
}

// ledgerReport counts what checkLedger found.
type ledgerReport struct {
	Acked, AckedFound       int      // acknowledged writes, and those found stored
	Unacked, UnackedLanded  int      // writes without a 2xx, and those stored anyway (whole)
	MultiEvent, MultiStored int      // multi-event commands sent, and stored (all events)
	Events                  int      // events in the stream
	Landed                  []string // the unacknowledged writes stored, with the answer they got
}

func (r ledgerReport) String() string {
	return fmt.Sprintf("acknowledged %d, found %d; not acknowledged %d, of which stored whole %d and absent %d; multi-event commands stored %d; stream %d events",
		r.Acked, r.AckedFound, r.Unacked, r.UnackedLanded, r.Unacked-r.UnackedLanded, r.MultiStored, r.Events)
}

// checkLedger holds the stream to what the load's clients were told:
//   - no event id is stored twice;
//   - every acknowledged write is stored exactly once, with the events its
//     answer listed, the last at the sequence it gave;
//   - a write that got an error or no answer is stored whole or not at all;
//   - a command's events are stored together, at consecutive sequences.
func checkLedger(t *testing.T, ops []*apiOp, stream []events.Event) ledgerReport {
	t.Helper()
	rep := ledgerReport{Events: len(stream)}
	seen := map[string]uint64{}
	groups := map[string][]events.Event{} // by correlation id: the command id
	for _, ev := range stream {
		if first, dup := seen[ev.ID]; dup {
			t.Errorf("event %s (%s) is stored twice: sequences %d and %d", ev.ID, ev.Type, first, ev.Sequence)
		}
		seen[ev.ID] = ev.Sequence
		groups[ev.CorrelationID] = append(groups[ev.CorrelationID], ev)
	}
	for _, o := range ops {
		g := groups[o.Key]
		stored := len(g) > 0
		if stored {
			checkShape(t, o, g)
		}
		if len(commandShapes[o.Kind][len(commandShapes[o.Kind])-1]) > 1 {
			rep.MultiEvent++
			if len(g) > 1 {
				rep.MultiStored++
			}
		}
		if !o.acked() {
			rep.Unacked++
			if stored {
				rep.UnackedLanded++
				answer := o.Err
				if o.Status != 0 {
					answer = fmt.Sprintf("%d %s", o.Status, o.Problem.Detail)
				}
				rep.Landed = append(rep.Landed, fmt.Sprintf("%s %s (%s)", o.Kind, o.Key, answer))
			}
			continue
		}
		rep.Acked++
		if !stored {
			t.Errorf("%s %s (proposal %s) was acknowledged (%d, sequence %d) but is not in the stream",
				o.Kind, o.Key, o.Proposal, o.Status, o.Answer.Sequence)
			continue
		}
		ids := make([]string, len(g))
		for i, ev := range g {
			ids[i] = ev.ID
		}
		if !slices.Equal(ids, o.Answer.Events) {
			t.Errorf("%s %s: the answer listed events %v, the stream holds %v", o.Kind, o.Key, o.Answer.Events, ids)
			continue
		}
		if last := g[len(g)-1].Sequence; o.Answer.Sequence != last {
			t.Errorf("%s %s: the answer gave sequence %d, its last event is at %d", o.Kind, o.Key, o.Answer.Sequence, last)
			continue
		}
		rep.AckedFound++
	}
	return rep
}

// checkShape checks that a command's stored events are whole, in one piece.
func checkShape(t *testing.T, o *apiOp, g []events.Event) {
	t.Helper()
	types := make([]string, len(g))
	for i, ev := range g {
		types[i] = ev.Type
		if i > 0 && ev.Sequence != g[i-1].Sequence+1 {
			t.Errorf("%s %s: events stored apart, at sequences %d and %d", o.Kind, o.Key, g[i-1].Sequence, ev.Sequence)
		}
	}
	if g[0].ID != o.Key {
		t.Errorf("%s %s: the command's first event has id %s", o.Kind, o.Key, g[0].ID)
	}
	if !slices.ContainsFunc(commandShapes[o.Kind], func(want []string) bool { return slices.Equal(types, want) }) {
		t.Errorf("%s %s (acknowledged: %v, status %d) is stored half or twice: %s",
			o.Kind, o.Key, o.acked(), o.Status, strings.Join(types, ", "))
	}
}
