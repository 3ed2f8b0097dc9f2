package handler_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go"
)

// TestReadsDuringOutage: with the store out of reach, reads answer from
// what the handler last saw, aggregates it never saw and every write are
// refused with ErrUnavailable, and once the store is back the next command
// reads on from where the cache stopped.
func TestReadsDuringOutage(t *testing.T) {
	ctx := testCtx(t)
	dir := t.TempDir()
	srv, err := jetstream.StartEmbedded(jetstream.EmbeddedOptions{Dir: dir, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	url := srv.ClientURL()
	nc, err := jetstream.Connect(url, t.Name(), nats.ReconnectWait(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	st, err := jetstream.Open(ctx, nc, jetstream.Config{})
	if err != nil {
		t.Fatal(err)
	}
	h := handler.New(st, func() time.Time { return t0 })
	desk(t, ctx, h, st)
	before, err := h.Proposal(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}

	srv.Shutdown()
	start := time.Now()
	got, err := h.Proposal(ctx, "p1")
	t.Logf("first read during the outage took %v", time.Since(start))
	if err != nil || got.Status != before.Status || got.Revision != before.Revision || got.Seq != before.Seq {
		t.Fatalf("Proposal during the outage = %+v, %v; want the state last seen (%s, revision %d, seq %d)", got, err, before.Status, before.Revision, before.Seq)
	}
	if _, err := h.Ranking(ctx, rk); err != nil {
		t.Errorf("Ranking during the outage: %v; want the state last seen", err)
	}
	if _, err := h.Proposal(ctx, "never-seen"); !errors.Is(err, events.ErrUnavailable) {
		t.Errorf("Proposal of an aggregate never loaded during the outage: %v; want ErrUnavailable", err)
	}
	vote := domain.CastVote{CommandID: newCommandID(), Proposal: "p1", Revision: 1, Verdict: approve, VerifiedEvidence: []string{"e1", "e2"}}
	if _, err := h.CastVote(ctx, actor("rita"), vote); !errors.Is(err, events.ErrUnavailable) {
		t.Fatalf("CastVote during the outage: %v; want ErrUnavailable", err)
	}

	// Back on the same directory and port: the client reconnects, and the
	// vote lands on the state as the store has it.
	srv2, err := jetstream.StartEmbedded(jetstream.EmbeddedOptions{Dir: dir, Listen: url[len("nats://"):]})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv2.Shutdown)
	deadline := time.Now().Add(10 * time.Second)
	for {
		vote.CommandID = newCommandID()
		_, err := h.CastVote(ctx, actor("rita"), vote)
		if err == nil {
			break
		}
		if !errors.Is(err, events.ErrUnavailable) || time.Now().After(deadline) {
			t.Fatalf("CastVote after the restart: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	after, err := h.Proposal(context.Background(), "p1")
	if err != nil || after.Seq <= before.Seq {
		t.Fatalf("Proposal after the vote = %+v, %v; want a later sequence than %d", after, err, before.Seq)
	}
}
