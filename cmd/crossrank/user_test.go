package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestUserAddPrintsLink: the operator's `user add` without --password
// prints a one-time link and stores no password, so nobody holds a token
// for the account until its owner chooses one; `user reset` prints a new
// link.
func TestUserAddPrintsLink(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	data := t.TempDir()
	link := regexp.MustCompile(`one-time link \(shown once, valid 72h0m0s\): https://rank\.example/welcome\?token=[A-Za-z0-9_-]{43}&user=zed`)
	out := runCLI(t, "user", "add", "zed", "--role", "reviewer", "--public-url", "https://rank.example", "--data", data)
	if !strings.Contains(out, "added user zed (reviewer)") || !link.MatchString(out) || strings.Contains(out, "password") {
		t.Errorf("user add:\n%s", out)
	}
	if out, err := runCLIErr(t, "token", "create", "zed", "--data", data); err == nil || !strings.Contains(out, "not chosen a password") {
		t.Errorf("a token for an account nobody took up: %v\n%s", err, out)
	}
	out = runCLI(t, "user", "reset", "zed", "--public-url", "https://rank.example", "--data", data)
	if !strings.Contains(out, "reset the password of zed") || !link.MatchString(out) {
		t.Errorf("user reset:\n%s", out)
	}
}
