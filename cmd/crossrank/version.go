package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/projections"
)

// printVersion prints what this binary is: the module's version, the
// commit and time it was built from (when built in a checkout), whether the
// tree had changes, and the versions of the engine parts linked in.
func printVersion(w io.Writer) error {
	version, revision, when, modified := "(devel)", "unknown", "", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.time":
				when = " (" + s.Value + ")"
			case "vcs.modified":
				if s.Value == "true" {
					modified = ", with uncommitted changes"
				}
			}
		}
	}
	_, err := fmt.Fprintf(w, "crossrank %s\n  commit      %s%s%s\n  nats-server %s (embedded)\n  SQLite      %s\n  Go          %s %s/%s\n",
		version, revision, when, modified, jetstream.ServerVersion(), projections.SQLiteVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}
