package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
)

// TestFaultKillBeforeScheduledEdition schedules an edition a few seconds
// ahead, kills `crossrank serve` with SIGKILL before the moment, waits past
// it and restarts on the same data: exactly one edition is published, by
// the scheduling publisher, carrying the schedule's id. The timer is a
// JetStream message schedule, so the moment passing while no process ran
// loses nothing; the durable consumers pick the work up on restart.
func TestFaultKillBeforeScheduledEdition(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	data := t.TempDir()
	demoTokens(t, "--data", data)
	pub := createToken(t, "publisher", "--data", data)
	natsAddr := freeLoopbackAddr(t)
	srv := startServe(t, "serve", data, "--no-demo", "--no-capture", "--nats-listen", natsAddr)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	status, body, err := apiGet(ctx, srv.url+"/api/v1/proposals?status=cross_validated&ranking="+demo.RankingSlug, pub)
	var list struct {
		Proposals []struct {
			ID string `json:"id"`
		} `json:"proposals"`
	}
	if err != nil || status != http.StatusOK || json.Unmarshal(body, &list) != nil || len(list.Proposals) == 0 {
		t.Fatalf("cross-validated proposals: %d %v %s", status, err, body)
	}
	var ids []string
	for _, p := range list.Proposals {
		ids = append(ids, p.ID)
	}
	var pv struct {
		PreviewHash string `json:"preview_hash"`
	}
	base := srv.url + "/api/v1/rankings/" + demo.RankingSlug + "/editions"
	if status, body := apiPostJSON(t, base+"/preview", pub, map[string]any{"proposals": ids}); status != http.StatusOK ||
		json.Unmarshal(body, &pv) != nil {
		t.Fatalf("preview: %d %s", status, body)
	}
	at := time.Now().Add(3 * time.Second).Truncate(time.Second).Add(time.Second)
	status, body = apiPostJSON(t, base+"/schedule", pub, map[string]any{"proposals": ids, "preview_hash": pv.PreviewHash,
		"at": at.Format(time.RFC3339)})
	var s struct {
		ID string `json:"id"`
	}
	if status != http.StatusCreated || json.Unmarshal(body, &s) != nil || s.ID == "" {
		t.Fatalf("schedule: %d %s", status, body)
	}
	time.Sleep(500 * time.Millisecond)
	srv.kill()
	if time.Now().After(at) {
		t.Fatalf("killed at %v, after the moment %v: the machine is too slow for this test", time.Now(), at)
	}
	t.Logf("scheduled %s for %s; killed %s before it", s.ID, at.Format(time.RFC3339), time.Until(at).Round(time.Millisecond))
	time.Sleep(time.Until(at) + time.Second)
	srv.restart()

	count := func() (n int, ev events.Event) {
		for _, e := range readStream(t, "nats://"+natsAddr, 1) {
			if d, ok := e.Data.(*events.EditionPublished); ok && d.Ranking == demo.RankingSlug && d.Schedule != "" {
				n, ev = n+1, e
			}
		}
		return n, ev
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if n, _ := count(); n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	time.Sleep(2 * time.Second) // long enough for a second firing to show
	n, ev := count()
	if n != 1 {
		t.Fatalf("%d scheduled editions published after the restart, want exactly 1", n)
	}
	d := ev.Data.(*events.EditionPublished)
	if d.Schedule != s.ID || ev.Actor != "publisher" || ev.Time.Before(at) {
		t.Errorf("edition %d by %q at %v with schedule %q; want by publisher, after %v, with %q", d.Number, ev.Actor,
			ev.Time, d.Schedule, at, s.ID)
	}
	srv.stop()
	if out, err := runCLIErr(t, "verify", "--data", data); err != nil {
		t.Errorf("crossrank verify after the scheduled edition: %v\n%s", err, out)
	}
}

// apiPostJSON posts v as JSON with the token and returns status and body.
func apiPostJSON(t *testing.T, url, token string, v any) (int, []byte) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := apiClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out bytes.Buffer
	_, _ = out.ReadFrom(res.Body)
	return res.StatusCode, out.Bytes()
}
