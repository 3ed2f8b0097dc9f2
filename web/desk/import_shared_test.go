package desk_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/imports"
)

// TestDeskImportOfAStoppedReplica: an import another replica was opening
// when it stopped writing (its record older than the bound) is shown on
// this replica's import page and by the API as failed, in the reader's
// language, saying that importing the same file again resumes it.
func TestDeskImportOfAStoppedReplica(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	nc, err := e.JS.Server.Connect("imports")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	kv, err := jetstream.OpenKV(e.Ctx, nc, jetstream.ImportJobsBucket, time.Hour, 1)
	if err != nil {
		t.Fatal(err)
	}
	e.Srv.ShareImports(t.Context(), imports.Shared{Jobs: kv, Runner: "this", Stale: time.Second})
	const id = "0123456789abcdef0123456789abcdef"
	rec, _ := json.Marshal(map[string]any{"id": id, "owner": "editor", "state": "opening", "stage": "open",
		"done": 50, "total": 120, "runner": "other:4242", "started": time.Now().Add(-time.Minute),
		"updated_at": time.Now().Add(-10 * time.Second)})
	if err := kv.Put(e.Ctx, id, rec); err != nil {
		t.Fatal(err)
	}

	c := e.Client("editor")
	for _, lang := range []string{i18n.En, i18n.Zh} {
		doc := importPage(c, "/desk/import/"+id, "Accept-Language", lang)
		got := strings.TrimSpace(doc.Find(`[data-testid="import-failure"]`).Text())
		if want := i18n.T(lang, "import.runner_stopped"); got != want {
			t.Errorf("%s: the page's failure %q, want %q", lang, got, want)
		}
	}
	res, body := c.Do(http.MethodGet, "/api/v1/imports/"+id, nil, http.Header{"Accept": {"application/json"}})
	var got struct {
		State string
		Error struct{ En, Zh string }
	}
	if err := json.Unmarshal([]byte(body), &got); res.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("GET /api/v1/imports/%s: %d %v %.300s", id, res.StatusCode, err, body)
	}
	if got.State != "failed" || got.Error.En != i18n.T(i18n.En, "import.runner_stopped") || got.Error.Zh != i18n.T(i18n.Zh, "import.runner_stopped") {
		t.Errorf("the API answers %s", body)
	}
	if res, _ := e.Client("reviewer1").Do(http.MethodGet, "/api/v1/imports/"+id, nil, http.Header{"Accept": {"application/json"}}); res.StatusCode != http.StatusNotFound {
		t.Errorf("another user's GET: %d, want 404", res.StatusCode)
	}
}
