package main

import (
	"strings"
	"testing"
)

// TestUserEmail: the operator gives a user a confirmed mail address when
// adding them and changes or erases it later; a bad address is refused
// before anything is added.
func TestUserEmail(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	data := t.TempDir()
	if out, err := runCLIErr(t, "user", "add", "amy", "--role", "reviewer", "--email", "not an address", "--data", data); err == nil ||
		!strings.Contains(out, "not one bare e-mail address") {
		t.Fatalf("a bad --email: %v\n%s", err, out)
	}
	out := runCLI(t, "user", "add", "amy", "--role", "reviewer", "--email", "amy@example.org", "--data", data)
	if !strings.Contains(out, "added user amy") || !strings.Contains(out, "mail to amy goes to amy@example.org") {
		t.Errorf("user add --email:\n%s", out)
	}
	if out := runCLI(t, "user", "email", "amy", "--data", data); !strings.Contains(out, "amy: amy@example.org (confirmed)") {
		t.Errorf("user email amy:\n%s", out)
	}
	runCLI(t, "user", "email", "amy", "amy@newsroom.example", "--data", data)
	if out := runCLI(t, "user", "email", "amy", "--data", data); !strings.Contains(out, "amy@newsroom.example (confirmed)") {
		t.Errorf("after a change:\n%s", out)
	}
	runCLI(t, "user", "email", "amy", "", "--data", data)
	if out := runCLI(t, "user", "email", "amy", "--data", data); !strings.Contains(out, "amy: no mail address") {
		t.Errorf("after erasing:\n%s", out)
	}
	if out, err := runCLIErr(t, "user", "email", "nobody", "x@example.org", "--data", data); err == nil {
		t.Errorf("an address for nobody: %s", out)
	}
}
