package main

import (
	"context"
	"log/slog"
	"sync"

	"github.com/crossrank/crossrank/cmd/crossrank/scheduler"
)

// startScheduler runs the scheduled editions' and the review due dates'
// feeders and firers until ctx ends. Every replica runs them: they share durable consumers, so each
// schedule is set and fired by one of them.
func startScheduler(ctx context.Context, e *env, replicas int, log *slog.Logger, wg *sync.WaitGroup) error {
	s, err := opened(ctx, e.start, "the schedule stream", func(context.Context) (*scheduler.Scheduler, error) {
		return scheduler.New(e.nc, scheduler.Config{Commands: e.commands, Reads: e.read, Replicas: replicas, Logger: log})
	})
	if err != nil {
		return err
	}
	wg.Go(func() { _ = s.Run(ctx) })
	n, err := opened(ctx, e.start, "the nudge schedule", func(context.Context) (*scheduler.Nudger, error) {
		return scheduler.NewNudger(e.nc, scheduler.NudgeConfig{Commands: e.commands, Replicas: replicas, Logger: log})
	})
	if err != nil {
		return err
	}
	wg.Go(func() { _ = n.Run(ctx) })
	return nil
}
