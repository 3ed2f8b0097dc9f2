// Command testtime reads `go test -json` on its standard input and prints
// what a developer reading CI needs: each package's result line as go test
// prints it, the output of every failing test, and at the end the ten
// slowest tests and each package's wall and CPU time (CPU from the lines
// .ci/testexec appended to the file -cpu names), so the next person sees
// where the time goes. It exits 1 when a test or a package failed.
//
//	go test -json -exec "$testexec" ./... | go run ./.ci/testtime -cpu "$log"
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

type testKey struct{ pkg, test string }

type report struct {
	output  map[testKey]*bytes.Buffer // a running test's output, kept until it ends
	tests   []timed
	pkgs    map[string]*pkgTime
	failed  bool
	slowest int
}

type timed struct {
	testKey
	elapsed float64
}

type pkgTime struct {
	wall, user, sys float64
	result          string
	hasCPU          bool
}

func main() {
	cpuLog := flag.String("cpu", "", "the file .ci/testexec appended CPU times to")
	slowest := flag.Int("n", 10, "how many of the slowest tests to list")
	flag.Parse()
	r := &report{output: map[testKey]*bytes.Buffer{}, pkgs: map[string]*pkgTime{}, slowest: *slowest}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	for in.Scan() {
		r.line(in.Bytes())
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "testtime: reading go test's output:", err)
		r.failed = true
	}
	if *cpuLog != "" {
		if err := r.readCPU(*cpuLog); err != nil {
			fmt.Fprintln(os.Stderr, "testtime: CPU times:", err)
		}
	}
	r.summary()
	if r.failed {
		os.Exit(1)
	}
}

// line handles one line: go test's own messages (build failures) are not
// JSON and pass through as they are.
func (r *report) line(b []byte) {
	var e event
	if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &e) != nil {
		fmt.Printf("%s\n", b)
		return
	}
	k := testKey{e.Package, e.Test}
	switch e.Action {
	case "output":
		if e.Test == "" {
			// A package's own lines: its result and anything printed outside
			// a test (TestMain, a panic). "=== RUN"-style framing is dropped.
			if !strings.HasPrefix(e.Output, "=== ") && e.Output != "PASS\n" && e.Output != "FAIL\n" {
				fmt.Print(e.Output)
			}
			return
		}
		buf := r.output[k]
		if buf == nil {
			buf = new(bytes.Buffer)
			r.output[k] = buf
		}
		buf.WriteString(e.Output)
	case "pass", "skip", "fail":
		if e.Test == "" {
			p := r.pkg(e.Package)
			p.wall, p.result = e.Elapsed, e.Action
			if e.Action == "fail" {
				r.failed = true
				r.unfinished(e.Package)
			}
			return
		}
		if e.Action == "fail" {
			r.failed = true
			fmt.Printf("--- FAIL: %s (%s)\n%s", e.Test, e.Package, r.output[k])
		}
		delete(r.output, k)
		if e.Action != "skip" && !strings.Contains(e.Test, "/") {
			r.tests = append(r.tests, timed{k, e.Elapsed})
		}
	}
}

// unfinished prints the output of pkg's tests that never ended: a binary
// that panicked or overran its timeout reports no result for them.
func (r *report) unfinished(pkg string) {
	var keys []testKey
	for k := range r.output {
		if k.pkg == pkg {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b testKey) int { return strings.Compare(a.test, b.test) })
	for _, k := range keys {
		fmt.Printf("--- UNFINISHED: %s (%s)\n%s", k.test, k.pkg, r.output[k])
		delete(r.output, k)
	}
}

func (r *report) pkg(name string) *pkgTime {
	p := r.pkgs[name]
	if p == nil {
		p = &pkgTime{}
		r.pkgs[name] = p
	}
	return p
}

// readCPU adds the CPU times testexec recorded, keyed by package directory,
// to the packages they ran: the import path is the module path and the
// directory below the module's root (the working directory).
func (r *report) readCPU(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	module, err := modulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			continue
		}
		rel, err := filepath.Rel(root, f[0])
		if err != nil {
			continue
		}
		name := module
		if rel != "." {
			name += "/" + filepath.ToSlash(rel)
		}
		user, _ := strconv.ParseFloat(f[1], 64)
		sys, _ := strconv.ParseFloat(f[2], 64)
		p := r.pkg(name)
		p.user += user
		p.sys += sys
		p.hasCPU = true
	}
	return nil
}

func modulePath(gomod string) (string, error) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "module "); ok {
			return strings.TrimSpace(rest), nil
		}
	}
	return "", fmt.Errorf("%s names no module", gomod)
}

func (r *report) summary() {
	slices.SortFunc(r.tests, func(a, b timed) int { return cmp.Compare(b.elapsed, a.elapsed) })
	fmt.Printf("\nthe %d slowest tests (wall seconds; tests side by side overlap):\n", min(r.slowest, len(r.tests)))
	for _, t := range r.tests[:min(r.slowest, len(r.tests))] {
		fmt.Printf("  %7.1f  %s %s\n", t.elapsed, t.pkg, t.test)
	}
	names := make([]string, 0, len(r.pkgs))
	var wall, cpu float64
	for name, p := range r.pkgs {
		if (p.result == "" || p.result == "skip") && !p.hasCPU {
			continue
		}
		names = append(names, name)
		wall += p.wall
		cpu += p.user + p.sys
	}
	slices.SortFunc(names, func(a, b string) int {
		pa, pb := r.pkgs[a], r.pkgs[b]
		return cmp.Or(cmp.Compare(pb.user+pb.sys, pa.user+pa.sys), cmp.Compare(pb.wall, pa.wall), strings.Compare(a, b))
	})
	fmt.Printf("\npackages by CPU (wall and CPU seconds of the test binary and what it started; packages run side by side):\n")
	fmt.Printf("  %7s %7s  %s\n", "wall", "cpu", "package")
	for _, name := range names {
		p := r.pkgs[name]
		c := "-"
		if p.hasCPU {
			c = fmt.Sprintf("%.1f", p.user+p.sys)
		}
		fmt.Printf("  %7.1f %7s  %s %s\n", p.wall, c, name, p.result)
	}
	fmt.Printf("  %7.1f %7.1f  all packages (sums)\n", wall, cpu)
}
