package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/projections"
)

// TestVerifyNamesTamperedRow: `crossrank verify` passes on the demo data,
// and once an audit row's actor is changed in read.db it exits 1 naming
// the row, the column and both values.
func TestVerifyNamesTamperedRow(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	data := t.TempDir()
	runCLI(t, "seed", "--data", data)
	start := time.Now()
	out := runCLI(t, "verify", "--data", data)
	t.Logf("verify of the demo data in %v: %s", time.Since(start).Round(time.Millisecond), strings.TrimSpace(out))

	rs, err := projections.Open(filepath.Join(data, "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	var actor string
	err = rs.DB().QueryRow("SELECT actor FROM audit WHERE seq=5").Scan(&actor)
	if err == nil {
		_, err = rs.DB().Exec("UPDATE audit SET actor='mallory' WHERE seq=5")
	}
	if cerr := rs.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}

	out, err = runCLIErr(t, "verify", "--data", data)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("verify of a tampered read model: %v, want exit status 1\n%s", err, out)
	}
	want := `audit row (seq 5): actor is "mallory" in the read model, "` + actor + `" replayed`
	if !strings.Contains(out, want) {
		t.Fatalf("verify of a tampered read model printed\n%s\nwant it to say %s", out, want)
	}
}
