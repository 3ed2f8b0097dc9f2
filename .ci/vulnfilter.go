// Command vulnfilter reads `govulncheck -format json` on standard input and
// fails (exit 1) when the code calls a vulnerable function of a module the
// project requires: those can be fixed by upgrading the module. Called
// vulnerabilities of the standard library are listed as warnings only: the
// Go toolchain is the machine's (see README), and moving it is a decision
// for the whole project, not for one CI run.
//
// Usage: govulncheck -format json ./... | go run .ci/vulnfilter.go
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
)

type message struct {
	Finding *struct {
		OSV          string `json:"osv"`
		FixedVersion string `json:"fixed_version"`
		Trace        []struct {
			Module   string `json:"module"`
			Version  string `json:"version"`
			Package  string `json:"package"`
			Receiver string `json:"receiver"`
			Function string `json:"function"`
		} `json:"trace"`
	} `json:"finding"`
}

func main() {
	called := map[string]map[string]string{} // module -> osv -> "version, fixed in"
	dec := json.NewDecoder(os.Stdin)
	for {
		var m message
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "vulnfilter: reading govulncheck output:", err)
			os.Exit(2)
		}
		f := m.Finding
		if f == nil || len(f.Trace) == 0 || f.Trace[0].Function == "" {
			continue // imported or required, but not called
		}
		top := f.Trace[0]
		if called[top.Module] == nil {
			called[top.Module] = map[string]string{}
		}
		fn := top.Function
		if top.Receiver != "" {
			fn = top.Receiver + "." + fn
		}
		fixed := f.FixedVersion
		if fixed == "" {
			fixed = "no fix yet"
		}
		if _, seen := called[top.Module][f.OSV]; !seen {
			called[top.Module][f.OSV] = fmt.Sprintf("%s@%s: the code reaches %s.%s; fixed in %s", top.Module, top.Version, top.Package, fn, fixed)
		}
	}
	failed := false
	for _, mod := range sorted(called) {
		level := "ERROR"
		if mod == "stdlib" {
			level = "WARNING (standard library; needs a newer Go toolchain)"
		} else {
			failed = true
		}
		for _, id := range sorted(called[mod]) {
			fmt.Printf("%s: %s: %s\n", level, id, called[mod][id])
		}
	}
	if len(called) == 0 {
		fmt.Println("govulncheck: no vulnerable function is called")
	}
	if failed {
		os.Exit(1)
	}
}

func sorted[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
