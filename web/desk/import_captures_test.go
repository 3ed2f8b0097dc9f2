package desk_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/rankfile"
)

// TestDeskImportShowsCaptureProgress: once an import has opened its
// proposals, its page says how many of the ranking's sources are captured
// and how many failed, and reloads itself while some wait.
func TestDeskImportShowsCaptureProgress(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	c := e.Client("editor")
	data, err := json.Marshal(rankfile.Generate("capture-progress", rankfile.Size{Entries: 12, Criteria: 2, Evidence: 1, Seed: 5}))
	if err != nil {
		t.Fatal(err)
	}
	res, body := upload(c, "ranking.json", data, "")
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("upload: %d %.300s", res.StatusCode, body)
	}
	loc := res.Header.Get("Location")
	if doc := importPage(c, loc); doc.Find(`[data-testid="import-captures"]`).Length() != 0 {
		t.Error("a dry run shows capture progress")
	}
	if res, body := c.PostForm(loc+"/confirm", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirm: %d %.300s", res.StatusCode, body)
	}
	importPage(c, loc)
	e.CaughtUp()

	rows, err := e.Read.DB().QueryContext(e.Ctx, `SELECT e.proposal, e.evidence_id FROM evidence e JOIN proposals p ON p.id=e.proposal
		WHERE p.ranking='capture-progress' AND e.source_url<>'' AND e.removed_revision IS NULL ORDER BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	var items [][2]string
	for rows.Next() {
		var it [2]string
		if err := rows.Scan(&it[0], &it[1]); err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	rows.Close()
	if len(items) < 3 {
		t.Fatalf("the generated ranking cites %d pages; the test needs 3", len(items))
	}
	e.recordCapture(domain.RecordCapture{Proposal: items[0][0], Evidence: items[0][1], FinalURL: "https://example.org/a",
		Status: 200, ContentType: "text/html", Size: 10, SHA256: strings.Repeat("cd", 32)})
	e.recordCapture(domain.RecordCapture{Proposal: items[1][0], Evidence: items[1][1], Failure: domain.CaptureTimeout})

	doc := importPage(c, loc)
	want := fmt.Sprintf("1 of %d sources captured, 1 failed", len(items))
	if got := strings.Join(strings.Fields(doc.Find(`[data-testid="import-captures"]`).Text()), " "); got != want {
		t.Errorf("capture progress %q, want %q", got, want)
	}
	if doc.Find(`[data-testid="import-captures-waiting"]`).Length() != 1 || doc.Find(`meta[http-equiv="refresh"]`).Length() != 1 {
		t.Error("with sources waiting, the page neither says so nor reloads itself")
	}

	// The API's door answers the same counts.
	id := loc[strings.LastIndex(loc, "/")+1:]
	res, body = c.Do(http.MethodGet, "/api/v1/imports/"+id, nil, http.Header{"Accept": {"application/json"}})
	var got struct {
		State    string `json:"state"`
		Captures *struct {
			Sources, Captured, Failed, Pending int
		} `json:"captures"`
	}
	if err := json.Unmarshal([]byte(body), &got); res.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("GET /api/v1/imports/%s: %d %v %.300s", id, res.StatusCode, err, body)
	}
	if c := got.Captures; c == nil || c.Sources != len(items) || c.Captured != 1 || c.Failed != 1 || c.Pending != len(items)-2 {
		t.Errorf("the API's captures: %.400s", body)
	}
}
