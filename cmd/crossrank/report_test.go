package main

import (
	"strings"
	"testing"
)

// TestReportErase: `crossrank report erase ID` opens the contacts bucket
// beside the stream and purges the report's addresses (none here); an id
// that is not one is a usage error. The erasure itself is tested on the
// bucket (web.TestReportIntake).
func TestReportErase(t *testing.T) {
	crossrankBinary(t)
	data := t.TempDir()
	out := runCLI(t, "report", "erase", "rp-0123456789abcdef0123456789abcdef", "--data", data)
	if !strings.Contains(out, "erased 0 contact address(es) of report rp-0123456789abcdef0123456789abcdef") {
		t.Errorf("report erase:\n%s", out)
	}
	if out, err := runCLIErr(t, "report", "erase", "Not An Id", "--data", data); err == nil || !strings.Contains(out, "usage: crossrank report erase ID") {
		t.Errorf("a bad id: %v\n%s", err, out)
	}
}
