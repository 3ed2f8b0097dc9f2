package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/events/jetstream"
)

// TestClusterImportAnsweredByEitherReplica: two `crossrank serve` replicas
// on one NATS server. A dry run checked on replica A is answered by B as A
// answers it; A is then killed, and B confirms the dry run from the upload
// A kept in JetStream and opens its proposals (issue 45 item 5).
func TestClusterImportAnsweredByEitherReplica(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	node := startNATS(t, jetstream.EmbeddedOptions{Dir: t.TempDir(), Listen: freeLoopbackAddr(t)})
	dataA, dataB := t.TempDir(), t.TempDir()
	tokens := demoTokens(t, "--data", dataA, "--nats-url", node.url)
	a := startServe(t, "replica A", dataA, "--nats-url", node.url, "--no-demo")
	b := startServe(t, "replica B", dataB, "--nats-url", node.url, "--no-demo")

	type answer struct {
		ID      string `json:"id"`
		State   string `json:"state"`
		Done    int    `json:"done"`
		Total   int    `json:"total"`
		Opened  int    `json:"opened"`
		Summary struct {
			Open int `json:"open"`
		} `json:"summary"`
		Raw string `json:"-"`
	}
	call := func(method, url string, body []byte) (int, answer) {
		t.Helper()
		req, _ := http.NewRequest(method, url, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tokens["editor"])
		req.Header.Set("Accept", "application/json")
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := apiClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		var out answer
		_ = json.Unmarshal(raw, &out)
		out.Raw = string(raw)
		return res.StatusCode, out
	}
	file, err := json.Marshal(rankfile.Generate("across-replicas", rankfile.Size{Entries: 40, Criteria: 2, Evidence: 1, Seed: 3}))
	if err != nil {
		t.Fatal(err)
	}
	status, started := call(http.MethodPost, a.url+"/api/v1/imports", file)
	if status != http.StatusAccepted {
		t.Fatalf("POST /api/v1/imports on A: %d %s", status, started.Raw)
	}
	path := "/api/v1/imports/" + started.ID
	var onA answer
	waitUntil(t, "A to check the file", 30*time.Second, func() bool {
		status, onA = call(http.MethodGet, a.url+path, nil)
		return status == http.StatusOK && onA.State == "checked"
	})
	status, onB := call(http.MethodGet, b.url+path, nil)
	if status != http.StatusOK || onB.Raw != onA.Raw {
		t.Fatalf("GET on B: %d %s\nwant A's %s", status, onB.Raw, onA.Raw)
	}

	a.kill()
	if status, confirmed := call(http.MethodPost, b.url+path+"/confirm", nil); status != http.StatusAccepted {
		t.Fatalf("confirm on B with A killed: %d %s", status, confirmed.Raw)
	}
	waitUntil(t, "B to open the proposals", 60*time.Second, func() bool {
		status, onB = call(http.MethodGet, b.url+path, nil)
		return status == http.StatusOK && onB.State != "opening" && onB.State != "checked"
	})
	if onB.State != "done" || onB.Opened != onA.Summary.Open || onB.Opened == 0 {
		t.Fatalf("B's import of A's dry run: %s", onB.Raw)
	}
}
