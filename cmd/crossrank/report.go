package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
)

const reportUsage = "usage: crossrank report erase ID"

// ContactLifetime is how long a reader's contact address is kept after the
// report that gave it: long enough for the editors to ask, then gone.
const ContactLifetime = 180 * 24 * time.Hour

// openContacts opens the bucket of readers' contact addresses.
func openContacts(ctx context.Context, e *env, replicas int) (*jetstream.KV, error) {
	kv, err := jetstream.OpenKV(ctx, e.nc, jetstream.ContactsBucket, ContactLifetime, replicas)
	if err != nil {
		return nil, fmt.Errorf("report contacts: %w", err)
	}
	return kv, nil
}

// parseReport parses `crossrank report erase ID`: the operator erases the
// contact addresses a report's readers gave (a request under the GDPR, or
// as soon as they are no longer needed). The report itself, which holds
// none, stays in the record.
func parseReport(args []string, w io.Writer) (*storeCommand, error) {
	if len(args) == 0 || args[0] != "erase" {
		if len(args) > 0 && isHelp(args[0]) {
			fmt.Fprintln(w, reportUsage)
			return nil, errHelp
		}
		return nil, usageError(reportUsage)
	}
	fs, sc := newFlags("report erase", w)
	if err := fs.Parse(reorder(args[1:])); err != nil {
		return nil, err
	}
	if fs.NArg() != 1 || !events.ValidID(fs.Arg(0)) {
		return nil, usageError(reportUsage)
	}
	id := fs.Arg(0)
	sc.run = func(ctx context.Context, e *env, out io.Writer) error {
		kv, err := openContacts(ctx, e, sc.common.replicas)
		if err != nil {
			return err
		}
		n, err := kv.Erase(ctx, id)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "erased %d contact address(es) of report %s\n", n, id)
		return nil
	}
	return sc, nil
}
