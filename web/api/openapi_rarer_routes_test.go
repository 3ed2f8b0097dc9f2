package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web/webtest"
)

// TestOpenAPIRarerRoutes exercises the routes no other web test calls, so
// each documented operation is validated at least once: removing an
// evidence item and dismissing a veto.
func TestOpenAPIRarerRoutes(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	alice, bob, pat := e.Client(), e.Client(), e.Client()
	alice.Login("alice")
	bob.Login("bob")
	pat.Login("pat")
	jsonHeader := http.Header{"Content-Type": {"application/json"}}

	draft := e.OpenProposal(alice, "vast")
	if res, body := alice.PostJSON("/api/v1/proposals/"+draft+"/evidence", map[string]any{
		"claim": "cheap", "source_name": "Market overview", "excerpt": "it is cheap", "observed_on": "2026-01-31"}, nil); res.StatusCode/100 != 2 {
		t.Fatalf("evidence: %d %s", res.StatusCode, body)
	}
	if res, body := alice.Do(http.MethodDelete, "/api/v1/proposals/"+draft+"/evidence/e1", strings.NewReader("{}"), jsonHeader); res.StatusCode != http.StatusOK {
		t.Fatalf("remove evidence: %d %s", res.StatusCode, body)
	}

	id := e.Reviewable(alice, "lambda")
	if res, body := bob.PostJSON("/api/v1/proposals/"+id+"/votes", map[string]any{
		"verdict": "reject", "revision": 1, "verified_evidence": []string{"e1"}, "comment": "stale"}, nil); res.StatusCode/100 != 2 {
		t.Fatalf("veto: %d %s", res.StatusCode, body)
	}
	if res, body := pat.PostJSON("/api/v1/proposals/"+id+"/dismiss-veto", map[string]any{"voter": "bob", "reason": "source refreshed"}, nil); res.StatusCode != http.StatusOK {
		t.Fatalf("dismiss veto: %d %s", res.StatusCode, body)
	}
}
