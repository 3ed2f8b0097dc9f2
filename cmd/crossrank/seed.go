package main

import (
	"context"
	"io"
)

// parseSeed parses `crossrank seed`: load the demo ranking (idempotent).
func parseSeed(args []string, w io.Writer) (*storeCommand, error) {
	fs, sc := newFlags("seed", w)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() != 0 {
		return nil, usageError("usage: crossrank seed")
	}
	sc.run = func(ctx context.Context, e *env, out io.Writer) error {
		stop, err := e.follow(ctx)
		if err != nil {
			return err
		}
		defer stop()
		return seedDemo(ctx, e, out)
	}
	return sc, nil
}
