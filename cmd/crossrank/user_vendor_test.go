package main

import (
	"strings"
	"testing"
)

// TestUserAddVendor: `user add --role vendor --entries` invites a vendor
// scoped to its entries; a vendor without entries, or with another role,
// is refused and nothing is stored.
func TestUserAddVendor(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	data := t.TempDir()
	if out, err := runCLIErr(t, "user", "add", "acme", "--role", "vendor", "--data", data); err == nil || !strings.Contains(out, "entries") {
		t.Errorf("a vendor without entries: %v\n%s", err, out)
	}
	if out, err := runCLIErr(t, "user", "add", "acme", "--role", "vendor,editor", "--entries", "gpu-cloud/aliyun", "--data", data); err == nil {
		t.Errorf("a vendor who also edits: accepted\n%s", out)
	}
	out := runCLI(t, "user", "add", "acme", "--role", "vendor", "--entries", "gpu-cloud/aliyun, gpu-cloud/autodl",
		"--public-url", "https://rank.example", "--data", data)
	if !strings.Contains(out, "added user acme (vendor)") {
		t.Errorf("user add vendor:\n%s", out)
	}
	if out := runCLI(t, "user", "list", "--data", data); !strings.Contains(out, "acme") {
		t.Errorf("user list:\n%s", out)
	}
}
