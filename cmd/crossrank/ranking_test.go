package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRankingExportImport exports the demo ranking from one data folder
// and imports it into an empty one beside a running server (so through its
// control socket): a dry run stores nothing, the proposals are opened as
// the editor named, importing again opens nothing, and a user without the
// editor role is refused.
func TestRankingExportImport(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	src, dst := t.TempDir(), t.TempDir()
	runCLI(t, "seed", "--data", src)
	file := filepath.Join(t.TempDir(), "gpu-cloud.json")
	out := runCLI(t, "ranking", "export", "gpu-cloud", "--out", file, "--data", src)
	if !strings.Contains(out, "edition 1 (9 entries") {
		t.Fatalf("export: %s", out)
	}
	if b, err := os.ReadFile(file); err != nil || !strings.Contains(string(b), `"format": "crossrank.ranking/v1"`) {
		t.Fatalf("exported file: %v\n%.200s", err, b)
	}

	runCLI(t, "user", "add", "ed", "--role", "editor", "--password", "a-long-password", "--data", dst)
	runCLI(t, "user", "add", "rev", "--role", "reviewer", "--password", "a-long-password", "--data", dst)
	startServe(t, "serve", dst, "--no-demo")
	if out, err := runCLIErr(t, "ranking", "import", file, "--as", "rev", "--data", dst); err == nil || !strings.Contains(out, "editor role") {
		t.Errorf("import as a reviewer: %v\n%s", err, out)
	}
	// A dry run prints what the import would do and stores nothing: the
	// import after it still opens everything.
	out = runCLI(t, "ranking", "import", file, "--as", "ed", "--dry-run", "--data", dst)
	if !strings.Contains(out, "entries 9: new 9") || !strings.Contains(out, "proposals: to open 10, already open 0") ||
		!strings.Contains(out, "nothing was stored") {
		t.Errorf("dry run: %s", out)
	}
	out = runCLI(t, "ranking", "import", file, "--as", "ed", "--data", dst)
	if !strings.Contains(out, "9 entry proposals submitted for review") || !strings.Contains(out, "methodology proposal") {
		t.Errorf("import: %s", out)
	}
	out = runCLI(t, "ranking", "import", file, "--as", "ed", "--data", dst)
	if !strings.Contains(out, "already imported") {
		t.Errorf("second import: %s", out)
	}
}
