package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/crossrank/crossrank/projections"
)

// parseRebuild parses `crossrank rebuild`: replay the whole stream into a
// fresh read-model file and swap it in. It needs the data folder to itself:
// beside a running server it is refused (the server rebuilds read models it
// finds stale or damaged whenever it starts).
func parseRebuild(args []string, w io.Writer) (*storeCommand, error) {
	fs, sc := newFlags("rebuild", w)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() != 0 {
		return nil, usageError("usage: crossrank rebuild")
	}
	sc.alone = "stop it first, then run crossrank rebuild (a server also rebuilds stale or damaged read models itself when it starts)"
	sc.run = func(ctx context.Context, e *env, out io.Writer) error {
		stats, err := projections.Rebuild(ctx, e.events, e.readPath)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "rebuilt %s: %d events in %.2fs (%.0f events/s)\n", e.readPath, stats.Events, stats.Duration.Seconds(), stats.Rate())
		return nil
	}
	return sc, nil
}

// parseVerify parses `crossrank verify`: replay the stream, recompute every
// edition's snapshot hash and the audit chain, and compare them with the
// committed values and the read models. Exit 0 when all match, 1 naming the
// first mismatch. Beside a running server it checks the server's own read
// models, through its control socket.
func parseVerify(args []string, w io.Writer) (*storeCommand, error) {
	fs, sc := newFlags("verify", w)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() != 0 {
		return nil, usageError("usage: crossrank verify")
	}
	sc.run = func(ctx context.Context, e *env, out io.Writer) error {
		rs := e.read
		if !e.served {
			var err error
			if rs, err = projections.Open(e.readPath); err != nil {
				return err
			}
			defer rs.Close()
		}
		rep, err := projections.Verify(ctx, e.events, rs.DB())
		var mm *projections.Mismatch
		if errors.As(err, &mm) {
			return exitError{1, mm}
		}
		if err != nil {
			return err
		}
		seq, _ := rs.Checkpoint()
		fmt.Fprintf(out, "verify ok: %d events, %d editions, audit chain head %s (read model at sequence %d)\n", rep.Events, rep.Editions, rep.Head, seq)
		return nil
	}
	return sc, nil
}
