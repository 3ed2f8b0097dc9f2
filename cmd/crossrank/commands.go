package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/crossrank/crossrank/domain/handler"
)

// storeCommand is a sub-command that works on the event store, parsed
// before anything is opened (so --help and argument errors touch nothing)
// and then run against an env: the command line's own, or — while a server
// owns the data folder — the server's, through its control socket.
type storeCommand struct {
	common common
	// run does the work, printing its result to out.
	run func(ctx context.Context, e *env, out io.Writer) error
	// alone, when set, means the command needs the data folder to itself;
	// it says what to do instead while a server runs on it.
	alone string
	// forward is what a server is sent in place of the command's own
	// arguments (paths made absolute); nil sends them as they are.
	forward []string
}

// storeParsers are the sub-commands that open the store, by name.
var storeParsers = map[string]func(args []string, w io.Writer) (*storeCommand, error){
	"seed":    parseSeed,
	"user":    parseUser,
	"token":   parseToken,
	"rebuild": parseRebuild,
	"verify":  parseVerify,
	"export":  parseExport,
	"backup":  parseBackup,
	"ranking": parseRanking,
	"bundle":  parseBundle,
	"report":  parseReport,
	"preview": parsePreview,
}

// errHelp is returned by a parser that printed the help asked for.
var errHelp = flag.ErrHelp

func usageError(s string) error { return exitError{2, errors.New(s)} }

func isHelp(a string) bool { return a == "-h" || a == "-help" || a == "--help" }

// newFlags returns a flag set that reports errors instead of exiting (a
// server parses commands too) and a storeCommand holding the common flags.
func newFlags(name string, w io.Writer) (*flag.FlagSet, *storeCommand) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	sc := &storeCommand{}
	sc.common.register(fs)
	return fs, sc
}

// runStoreCommand parses and runs a store command from the command line.
// With an embedded server it runs on the data folder when the folder is
// free, and through the server that owns it otherwise; with --nats-url
// every process is a client of the same stream and needs no lock.
func runStoreCommand(ctx context.Context, name string, args []string) error {
	sc, err := storeParsers[name](args, os.Stderr)
	switch {
	case errors.Is(err, errHelp):
		return nil
	case err != nil:
		var exit exitError
		if errors.As(err, &exit) {
			return err
		}
		return exitError{2, err}
	}
	fwd := sc.forward
	if fwd == nil {
		fwd = args
	}
	if sc.common.natsURL == "" {
		if owner := peekOwner(sc.common.data); owner != nil {
			return viaServer(ctx, owner, sc, name, fwd)
		}
	}
	e, err := sc.common.openEvents(ctx, newLogger())
	var busy *busyError
	if errors.As(err, &busy) { // a server took the folder a moment ago
		return viaServer(ctx, busy, sc, name, fwd)
	}
	if err != nil {
		return err
	}
	defer e.close()
	// A command line of its own: nothing scrapes its metrics.
	e.commands = handler.New(e.events, nil)
	return sc.run(ctx, e, os.Stdout)
}

// startingWait is how long a command waits for a server that holds the
// folder but does not listen yet (it may be rebuilding its read models).
const startingWait = 60 * time.Second

// viaServer sends the command to the server that owns the folder, or
// refuses — before writing anything — when that cannot be done.
func viaServer(ctx context.Context, owner *busyError, sc *storeCommand, name string, args []string) error {
	if sc.alone != "" {
		return exitError{1, fmt.Errorf("%v; %s", owner, sc.alone)}
	}
	deadline := time.Now().Add(startingWait)
	for owner.socket == "" {
		if time.Now().After(deadline) {
			return exitError{1, fmt.Errorf("%v and has not opened its control socket after %s; try again once it serves", owner, startingWait)}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		next := peekOwner(owner.dir)
		if next == nil {
			return exitError{1, fmt.Errorf("%v but it stopped while this command waited for it; run the command again", owner)}
		}
		owner = next
	}
	code, err := sendControl(ctx, owner.socket, controlRequest{Command: name, Args: args}, os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, errNoAnswer):
		return exitError{1, fmt.Errorf("%v but its control socket %s does not answer (%v); nothing was changed", owner, owner.socket, err)}
	case err != nil && code == 0:
		return exitError{1, fmt.Errorf("through the server (pid %d): %w", owner.pid, err)}
	case err != nil:
		return exitError{code, err}
	case code != 0:
		return exitError{code, fmt.Errorf("%s failed on the server (pid %d)", name, owner.pid)}
	}
	return nil
}
