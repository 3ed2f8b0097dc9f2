// Command crossrank runs the Crossrank editorial desk and public site, and
// the operations around it: users, tokens, rebuilding and verifying the read
// models, exporting the site, benchmarks and the demo seed.
//
// Usage: crossrank [serve|seed|user|token|rebuild|verify] [flags]
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

const usage = `crossrank — an editorial desk for evidence-backed rankings

Usage:
  crossrank [serve] [flags]        run the desk and public site (default)
  crossrank seed                   load the demo ranking (idempotent)
  crossrank user add NAME --role editor[,reviewer,publisher] [--password P]
  crossrank user list
  crossrank user grant NAME ROLE   |  crossrank user revoke NAME ROLE
  crossrank user passwd NAME [--password P]
  crossrank token create NAME [--name LABEL]
  crossrank rebuild                replay the stream into fresh read models
  crossrank verify                 replay and check editions and the audit chain
  crossrank export --out DIR       write the public site as static files (atomic)
  crossrank bench [--runs 3] [--events 1000000] [--quick] [--work DIR]   measure against the raw engine

Common flags (each has an env twin):
  --data DIR          data directory (CROSSRANK_DATA, default ./data)
  --nats-url URL      external NATS server or cluster (CROSSRANK_NATS_URL)
  --nats-listen ADDR  expose the embedded NATS on ADDR (CROSSRANK_NATS_LISTEN)
  --replicas N        stream replicas on a cluster (CROSSRANK_REPLICAS, default 1)
Run "crossrank <command> -h" for a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		var exit exitError
		if errors.As(err, &exit) {
			fmt.Fprintln(os.Stderr, "crossrank:", exit.err)
			os.Exit(exit.code)
		}
		fmt.Fprintln(os.Stderr, "crossrank:", err)
		os.Exit(1)
	}
}

// exitError carries a specific exit status.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }

func run(ctx context.Context, args []string) error {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, args)
	case "seed":
		return seedCmd(ctx, args)
	case "user":
		return userCmd(ctx, args)
	case "token":
		return tokenCmd(ctx, args)
	case "rebuild":
		return rebuildCmd(ctx, args)
	case "verify":
		return verifyCmd(ctx, args)
	case "export":
		return exportCmd(ctx, args)
	case "bench":
		return benchCmd(ctx, args)
	case "help", "-h", "--help":
		fmt.Print(usage)
		return nil
	}
	fmt.Fprint(os.Stderr, usage)
	return exitError{2, fmt.Errorf("unknown command %q", cmd)}
}
