package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestAPICaptureFailedAttempts: a proposal's evidence whose capture the
// worker gave up on says how many attempts it made, as the OpenAPI document
// describes (the client checks the answer against it, strictly); a failure
// recorded without a count leaves the field out.
func TestAPICaptureFailedAttempts(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	before, err := e.Cmd.Proposal(e.Ctx, webtest.DemoDraft)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"https://example.org/slow", "https://example.org/old"} {
		if _, err := e.Cmd.AddEvidence(e.Ctx, editor, domain.AddEvidence{CommandID: "attempts-ev-" + u, Proposal: webtest.DemoDraft,
			Claim: events.Text{En: "Claim"}, SourceURL: u, Excerpt: "RTX 4090", ObservedOn: "2026-03-01"}); err != nil {
			t.Fatal(err)
		}
	}
	after, err := e.Cmd.Proposal(e.Ctx, webtest.DemoDraft)
	if err != nil {
		t.Fatal(err)
	}
	slow, old := after.Evidence[len(before.Evidence)].EvidenceID, after.Evidence[len(before.Evidence)+1].EvidenceID
	for id, attempts := range map[string]int{slow: 12, old: 0} {
		if _, err := e.Cmd.RecordCapture(e.Ctx, domain.Worker(), domain.RecordCapture{CommandID: "attempts-" + id,
			Proposal: webtest.DemoDraft, Evidence: id, At: time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC),
			Failure: domain.CaptureTimeout, Attempts: attempts}); err != nil {
			t.Fatal(err)
		}
	}
	e.CaughtUp()

	res, body := e.Client("editor").Do(http.MethodGet, "/api/v1/proposals/"+webtest.DemoDraft, nil, nil)
	var p api.Proposal
	if err := json.Unmarshal([]byte(body), &p); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET proposal: %d %v %s", res.StatusCode, err, body)
	}
	got := map[string]int{}
	for _, ev := range p.Evidence {
		if f := ev.CaptureFailed; f != nil {
			got[ev.EvidenceID] = f.Attempts
		}
	}
	if got[slow] != 12 || got[old] != 0 || len(got) != 2 {
		t.Errorf("failed captures' attempts %v, want %s: 12 and %s: 0", got, slow, old)
	}
	var raw struct {
		Evidence []map[string]json.RawMessage `json:"evidence"`
	}
	if err := json.Unmarshal([]byte(body), &raw); err != nil {
		t.Fatal(err)
	}
	for _, ev := range raw.Evidence {
		var f map[string]any
		if err := json.Unmarshal(ev["capture_failed"], &f); err != nil || f == nil {
			continue
		}
		if _, has := f["attempts"]; has != (f["evidence_id"] == slow) {
			t.Errorf("capture_failed %v: attempts present %v", f, has)
		}
	}
}
