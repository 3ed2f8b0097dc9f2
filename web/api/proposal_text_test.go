package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestAPIReviseWithdrawRejectText: the three commands that carry one text
// take it from their own JSON field ("note" for revise, "reason" for
// withdraw and reject), refuse the other one as an unknown field, and store
// it in their event.
func TestAPIReviseWithdrawRejectText(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	alice, pat := e.Client(), e.Client()
	alice.Login("alice")
	pat.Login("pat")
	revised, rejected := e.Reviewable(alice, "alpha"), e.Reviewable(alice, "beta")
	cases := []struct {
		name         string
		c            *webtest.Client
		id, verb     string
		field, wrong string
		typ          string
	}{
		{"revise", alice, revised, "revise", "note", "reason", "crossrank.proposal.revised.v1"},
		{"withdraw", alice, revised, "withdraw", "reason", "note", "crossrank.proposal.withdrawn.v1"},
		{"reject", pat, rejected, "reject", "reason", "note", "crossrank.proposal.rejected.v1"},
	}
	for _, tc := range cases {
		path := "/api/v1/proposals/" + tc.id + "/" + tc.verb
		before := e.LastSeq()
		res, body := tc.c.PostJSON(path, map[string]any{tc.wrong: "x"}, nil)
		if res.StatusCode != http.StatusBadRequest {
			t.Fatalf("%s with %q: status %d, want 400: %s", tc.name, tc.wrong, res.StatusCode, body)
		}
		if p := webtest.DecodeProblem(t, res, body); len(p.Errors) != 1 || p.Errors[0].Field != tc.wrong {
			t.Errorf("%s with %q: errors %+v, want the field named", tc.name, tc.wrong, p.Errors)
		}
		if e.LastSeq() != before {
			t.Errorf("%s with %q appended events", tc.name, tc.wrong)
		}

		text := "Because of " + tc.name
		res, body = tc.c.PostJSON(path, map[string]any{tc.field: text}, nil)
		if res.StatusCode != http.StatusOK || res.Header.Get("Location") != "/api/v1/proposals/"+tc.id {
			t.Fatalf("%s: status %d Location %q: %s", tc.name, res.StatusCode, res.Header.Get("Location"), body)
		}
		var got map[string]any
		if err := e.Store.Replay(webtest.Context(t), e.LastSeq(), func(ev events.Event) error {
			if ev.Type != tc.typ || ev.Subject != tc.id {
				t.Errorf("%s stored %s on %s, want %s on %s", tc.name, ev.Type, ev.Subject, tc.typ, tc.id)
			}
			return json.Unmarshal(ev.Raw, &got)
		}); err != nil {
			t.Fatal(err)
		}
		if got[tc.field] != text {
			t.Errorf("%s stored %v, want %s %q", tc.name, got, tc.field, text)
		}
	}
}
