package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/crossrank/crossrank/domain/bundle"
)

const bundleUsage = "usage: crossrank bundle SLUG N --out FILE"

// parseBundle parses `crossrank bundle SLUG N --out FILE`: write the signed
// bundle of edition N of ranking SLUG (docs/edition-bundle.md), read from
// the event store and signed with the data folder's key. Beside a running
// server the server writes it, to the absolute path given.
func parseBundle(args []string, w io.Writer) (*storeCommand, error) {
	fs, sc := newFlags("bundle", w)
	var out string
	fs.StringVar(&out, "out", "", "file to write the bundle to (a zip), replaced atomically")
	if err := fs.Parse(reorder(args)); err != nil {
		return nil, err
	}
	pos := fs.Args()
	if len(pos) != 2 || out == "" {
		return nil, usageError(bundleUsage)
	}
	n, err := strconv.Atoi(pos[1])
	if err != nil || n < 1 {
		return nil, usageError(bundleUsage + " (N: an edition number, 1 or more)")
	}
	path, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	sc.forward = []string{pos[0], pos[1], "--out", path}
	sc.run = func(ctx context.Context, e *env, w io.Writer) error {
		key, err := signingKey(e.data, e.log)
		if err != nil {
			return err
		}
		return writeBundle(ctx, bundle.NewProducer(e.events, key), pos[0], n, path, w)
	}
	return sc, nil
}

// writeBundle writes the bundle to path, whole or not at all (a temporary
// file renamed into place).
func writeBundle(ctx context.Context, p *bundle.Producer, slug string, n int, path string, w io.Writer) error {
	b, err := p.Prepare(ctx, slug, n)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".bundle-*.zip")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := b.WriteTo(ctx, tmp); err != nil {
		tmp.Close()
		return err
	}
	size, _ := tmp.Seek(0, io.SeekCurrent)
	if err := tmp.Chmod(0o644); err != nil { // a public file, whatever the process umask
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote the bundle of %s edition %d (%d bytes, signed by key %s) to %s\n", slug, n, size, p.Key().Kid, path)
	return nil
}

const verifyBundleUsage = "usage: crossrank verify-bundle FILE [--key KEYFILE]"

// verifyBundle runs `crossrank verify-bundle FILE [--key KEYFILE]`: check
// a bundle offline — no server, no NATS, no network, no data folder — and
// print each check. KEYFILE pins the key it must be signed with: the JSON
// served at /.well-known/crossrank-signing-key, a JWK, or the key's 32
// bytes in base64.
func verifyBundle(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("verify-bundle", flag.ContinueOnError)
	fs.SetOutput(w)
	keyFile := fs.String("key", "", "file holding the public key the bundle must be signed with (a JWK set, a JWK or base64); without it the key in the bundle is trusted")
	err := fs.Parse(reorder(args))
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil || fs.NArg() != 1 {
		return usageError(verifyBundleUsage)
	}
	var o bundle.Options
	if *keyFile != "" {
		b, err := os.ReadFile(*keyFile)
		if err != nil {
			return exitError{2, err}
		}
		if o.Key, err = bundle.ParsePublicKey(b); err != nil {
			return exitError{2, fmt.Errorf("--key %s: %w", *keyFile, err)}
		}
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return exitError{2, err}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	rep, err := bundle.Verify(f, st.Size(), o)
	printReport(w, fs.Arg(0), rep, o.Key)
	if err != nil {
		return exitError{1, fmt.Errorf("%s does not verify", fs.Arg(0))}
	}
	return nil
}

// printReport writes a line per check: ok or FAILED, and what.
func printReport(w io.Writer, name string, rep bundle.Report, pinned ed25519.PublicKey) {
	m := rep.Manifest
	fmt.Fprintf(w, "%s: ranking %s, edition %d, snapshot %s\n", name, m.Ranking, m.Edition, m.SnapshotHash)
	for _, c := range rep.Checks {
		state := "ok    "
		if !c.OK {
			state = "FAILED"
		}
		fmt.Fprintf(w, "  %s %-9s %s\n", state, c.Name, c.Detail)
	}
	if pinned == nil {
		fmt.Fprintf(w, "  note: no --key given: the key the bundle carries (%s) was trusted\n", m.Key.Kid)
	}
}
