package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/projections"
)

// TestFaultLostReadModels loses the read models of a stopped server —
// deleted with their WAL, or overwritten with garbage — and checks that the
// next start rebuilds them from the stream: the same rows (projections.Dump)
// and the same public ranking as before.
func TestFaultLostReadModels(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	data := t.TempDir()
	tokens := demoTokens(t, "--data", data)
	srv := startServe(t, "serve", data, "--no-demo")
	// A few stories put proposals, votes and new entries in the models.
	l := startAPILoad(tokens, 4, 1, func(int, int) string { return srv.url })
	time.Sleep(time.Second)
	l.stop()
	t.Logf("load before the loss: %s", opSummary(l.snapshot()))
	srv.waitReady(10 * time.Second)
	ranking := publicRanking(t, srv.url)
	srv.stopAtEnd()
	readDB := filepath.Join(data, "read.db")
	want := dumpReadModels(t, readDB)

	// A missing file starts empty and catches up from sequence 1; an
	// unreadable one is rebuilt into a fresh file and swapped in.
	damages := []struct {
		name    string
		rebuild bool // the server must say it rebuilt
		damage  func() error
	}{
		{"deleted", false, func() error {
			for _, f := range []string{readDB, readDB + "-wal", readDB + "-shm"} {
				if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
					return err
				}
			}
			return nil
		}},
		{"garbage", true, func() error {
			junk := make([]byte, 256<<10)
			rand.Read(junk)
			os.Remove(readDB + "-wal")
			os.Remove(readDB + "-shm")
			return os.WriteFile(readDB, junk, 0o644)
		}},
		{"truncated", true, func() error {
			os.Remove(readDB + "-wal")
			os.Remove(readDB + "-shm")
			fi, err := os.Stat(readDB)
			if err != nil {
				return err
			}
			return os.Truncate(readDB, fi.Size()/2)
		}},
	}
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			if err := d.damage(); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			srv.restart()
			t.Logf("read models %s: serving again after %s", d.name, time.Since(start).Round(time.Millisecond))
			if d.rebuild && !srv.log.contains("rebuilding read models from the stream") {
				t.Errorf("the server did not say it rebuilt the read models:\n%s", srv.log.tail(20))
			}
			if got := publicRanking(t, srv.url); !bytes.Equal(got, ranking) {
				t.Errorf("GET /api/v1/rankings/%s after the rebuild differs:\n got %s\nwant %s", demo.RankingSlug, got, ranking)
			}
			srv.stop()
			if got := dumpReadModels(t, readDB); got != want {
				t.Errorf("rebuilt read models differ from the lost ones: %s", firstDifference(got, want))
			}
		})
	}
}

// publicRanking returns the status line and body of the public ranking API
// (whatever the public site answers, it must answer the same after a rebuild).
func publicRanking(t *testing.T, base string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	status, body, err := apiGet(ctx, base+"/api/v1/rankings/"+demo.RankingSlug, "")
	if err != nil {
		t.Fatalf("GET ranking: %v", err)
	}
	return append(fmt.Appendf(nil, "%d ", status), body...)
}

// dumpReadModels returns the canonical dump of the read models at path.
func dumpReadModels(t *testing.T, path string) string {
	t.Helper()
	rs, err := projections.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer rs.Close()
	d, err := projections.Dump(context.Background(), rs.DB())
	if err != nil {
		t.Fatalf("dump %s: %v", path, err)
	}
	return d
}

// firstDifference names the first line where two dumps differ.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	table := ""
	for i := 0; i < len(g) && i < len(w); i++ {
		if strings.HasPrefix(w[i], "== ") {
			table = w[i]
		}
		if g[i] != w[i] {
			return fmt.Sprintf("%s line %d:\n got %s\nwant %s", table, i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}
