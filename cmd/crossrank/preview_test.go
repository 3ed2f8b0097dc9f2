package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
)

// TestPreviewCLI: `crossrank preview create` runs the same command as the
// desk and the API — a past expiry is refused, naming the field, and
// stores nothing — prints the link once with the preview's id, and
// `crossrank preview revoke ID` revokes it (a second time is refused).
// The link's page itself is tested in web (TestPreviewLifecycle).
func TestPreviewCLI(t *testing.T) {
	crossrankBinary(t)
	data := t.TempDir()
	runCLI(t, "seed", "--data", data)
	const proposal = "demo-qingjiao-2" // cross-validated by the seed
	create := func(expires time.Time) (string, error) {
		return runCLIErr(t, "preview", "create", "--ranking", demo.RankingSlug, "--proposal", proposal,
			"--expires", expires.UTC().Format(time.RFC3339), "--note", "embargoed", "--public-url", "https://rank.example", "--data", data)
	}
	if out, err := create(time.Now().Add(-time.Hour)); err == nil || !strings.Contains(out, "expir") {
		t.Errorf("a past expiry: %v\n%s", err, out)
	}
	out, err := create(time.Now().Add(24 * time.Hour))
	if err != nil {
		t.Fatalf("create: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`created preview (\S+) of 1 proposal`).FindStringSubmatch(out)
	if m == nil || !regexp.MustCompile(`link \(shown once\): https://rank\.example/preview/[A-Za-z0-9_-]{43}\n`).MatchString(out) {
		t.Fatalf("create printed:\n%s", out)
	}
	if out := runCLI(t, "preview", "revoke", m[1], "--data", data); !strings.Contains(out, "revoked preview "+m[1]) {
		t.Errorf("revoke printed:\n%s", out)
	}
	if out, err := runCLIErr(t, "preview", "revoke", m[1], "--data", data); err == nil {
		t.Errorf("revoked twice:\n%s", out)
	}
	if out, err := runCLIErr(t, "preview", "create", "--ranking", demo.RankingSlug, "--data", data); err == nil || !strings.Contains(out, "usage: crossrank preview") {
		t.Errorf("no proposal: %v\n%s", err, out)
	}
}
