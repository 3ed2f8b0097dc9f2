package main

import (
	"context"
	"flag"
	"sync"
)

// seedCmd loads the demo ranking into the store (idempotent).
func seedCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("seed", flag.ExitOnError)
	var c common
	c.register(fs)
	fs.Parse(args)
	e, err := c.openEvents(ctx, newLogger())
	if err != nil {
		return err
	}
	defer e.close()
	if err := e.openRead(ctx); err != nil {
		return err
	}
	runCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { e.read.Run(runCtx, e.events, e.log) })
	defer func() { stop(); wg.Wait() }()
	return seedDemo(ctx, e, true)
}
