// Command crossrank runs the Crossrank editorial desk and public site, and
// the operations around it: users, tokens, rebuilding and verifying the read
// models, exporting the site, benchmarks and the demo seed.
//
// Usage: crossrank [serve|seed|user|token|rebuild|verify|export|backup|restore|ranking|bundle|verify-bundle|bench|version|help] [flags]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/crossrank/crossrank/cmd/crossrank/bench"
)

const usage = `crossrank — an editorial desk for evidence-backed rankings

Usage:
  crossrank [serve] [flags]        run the desk and public site (default)
  crossrank seed                   load the demo ranking (idempotent)
  crossrank user add NAME --role editor[,reviewer,publisher,admin] [--display-name D]
                                   prints a one-time link (72 h) on which NAME chooses their password
  crossrank user reset NAME        ends NAME's sessions and tokens, prints a new one-time link
  crossrank user list
  crossrank user grant NAME ROLE   |  crossrank user revoke NAME ROLE
  crossrank user add NAME --role R --password P   only when you, the operator, are NAME
  crossrank user passwd NAME --password P         only when you, the operator, are NAME
  crossrank token create NAME [--name LABEL] [--days N]   (N=0: never expires; default 90)
  crossrank report erase ID                       erase the contact addresses readers gave with a report
  crossrank preview create --ranking SLUG --proposal ID [--proposal ID…] --expires RFC3339 [--note T] [--vendor NAME…]
                                   an embargoed preview of cross-validated proposals; prints its link once
  crossrank preview revoke ID      the preview's link stops opening
  crossrank rebuild                replay the stream into fresh read models (server stopped)
  crossrank verify                 replay and check editions, published scores and the audit trail
  crossrank export --out DIR       write the public site as static files (atomic)
  crossrank backup --out DIR       an online backup: JetStream snapshots of the events, captures and
                                   buckets (not the sign-in sessions), and the signing key apart, as
                                   SECRET-signing.key; DIR must be new or empty
  crossrank restore DIR --data NEW   a backup into a new or empty data folder (or --nats-url onto a
                                   server without Crossrank's streams); then run crossrank verify
  crossrank ranking export SLUG --out FILE   write a ranking's published edition as a ranking file
  crossrank ranking import FILE --as USER [--ranking SLUG] [--dry-run]
                                   open its methodology and entries as proposals for review (a ranking
                                   file, or a CSV with --ranking); --dry-run prints what it would do
                                   (USER must be an editor; importing the same file again opens nothing)
  crossrank bundle SLUG N --out FILE   write edition N's signed bundle: what recomputes it offline
  crossrank verify-bundle FILE [--key KEYFILE]   recompute a bundle's edition and check its signature
                                   and digests, offline (KEYFILE pins the site's public key)
  crossrank bench [--runs 3] [--events 1000000] [--quick] [--only PART] [--work DIR]
                                   measure against the raw engine (PART: commands, import, rebuild, http, capture, scale, …)
  crossrank version                versions of Crossrank, nats-server, SQLite and Go
  crossrank help                   this text

While "crossrank serve" runs on a data folder it owns the folder (DATA/LOCK);
the other commands on that folder run through it, over its control socket.

Run "crossrank <command> -h" for a command's flags; serve's include the common
ones below, and every flag has an environment twin, named in its help.

Common flags:
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
	if len(args) > 0 && len(args[0]) > 0 && (args[0][0] != '-' || isHelp(args[0])) {
		cmd, args = args[0], args[1:]
	}
	if _, ok := storeParsers[cmd]; ok {
		return runStoreCommand(ctx, cmd, args)
	}
	switch cmd {
	case "serve":
		return serve(ctx, args)
	case "bench":
		// The bench measures what serve runs, under serve's default limit.
		applyMemoryLimit(defaultMemoryLimitMiB)
		return bench.Command(ctx, args)
	case "verify-bundle":
		return verifyBundle(args, os.Stdout)
	case "restore":
		return restore(ctx, args, os.Stdout, os.Stderr)
	case "version":
		return printVersion(os.Stdout)
	case "help", "-h", "-help", "--help":
		printUsage(os.Stdout)
		return nil
	}
	printUsage(os.Stderr)
	return exitError{2, fmt.Errorf("unknown command %q", cmd)}
}

// printUsage writes the usage, the common flags' lines generated from their
// declarations (config.go).
func printUsage(w io.Writer) {
	fmt.Fprint(w, usage)
	fs := flag.NewFlagSet("crossrank", flag.ContinueOnError)
	(&common{}).register(fs)
	fs.SetOutput(w)
	fs.PrintDefaults()
}
