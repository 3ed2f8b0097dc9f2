package desk_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web/webtest"
)

// TestChatWebhookSetByAPIAndDesk: a publisher sets a ranking's chat webhook
// through the API and the desk form; a bad URL or language is 422 naming
// its field, another role is 403, and nothing is appended when refused.
func TestChatWebhookSetByAPIAndDesk(t *testing.T) {
	e := newDemoEnv(t)
	pub, ed := e.Client("publisher"), e.Client("editor")
	target := "/api/v1/rankings/" + webtest.DemoRanking + "/chat-webhook"
	put := func(c *webtest.Client, body string) (*http.Response, string) {
		return c.Do(http.MethodPut, target, strings.NewReader(body), http.Header{"Content-Type": {"application/json"}})
	}
	for body, field := range map[string]string{
		`{"url":"ftp://chat.example/hooks/x"}`:                       "url",
		`{"url":"https://chat.example/hooks/x","lang":"fr"}`:         "lang",
		`{"url":"https://user:pw@chat.example/hooks/x","lang":"en"}`: "url",
	} {
		before := e.LastSeq()
		res, text := put(pub, body)
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("%s: status %d, want 422; %s", body, res.StatusCode, text)
		}
		if p := webtest.DecodeProblem(t, res, text); len(p.Errors) != 1 || p.Errors[0].Field != field {
			t.Errorf("%s: errors %+v, want one naming %s", body, p.Errors, field)
		}
		if e.LastSeq() != before {
			t.Errorf("%s refused but appended", body)
		}
	}
	if res, text := put(ed, `{"url":"https://chat.example/hooks/x"}`); res.StatusCode != http.StatusForbidden {
		t.Errorf("an editor sets the chat webhook: %d %s", res.StatusCode, text)
	}
	if res, text := put(pub, `{"url":"https://chat.example/hooks/T0/B0/secret","lang":"en"}`); res.StatusCode != http.StatusNoContent {
		t.Fatalf("set: %d %s", res.StatusCode, text)
	}
	r, err := e.Cmd.Ranking(e.Ctx, webtest.DemoRanking)
	if err != nil || r.ChatURL != "https://chat.example/hooks/T0/B0/secret" || r.ChatLang != "en" {
		t.Fatalf("ranking's chat webhook %q %q %v", r.ChatURL, r.ChatLang, err)
	}
	// The desk form replaces it; the audit trail shows the host only.
	page := e.Page(pub, "/desk/webhooks", http.StatusOK)
	if page.Find(`[data-testid="chat-webhook-form"]`).Length() != 1 {
		t.Fatal("no chat webhook form on the webhooks page")
	}
	status, loc, _ := e.Post(pub, "/desk/webhooks/chat", url.Values{"ranking": {webtest.DemoRanking},
		"url": {"https://mattermost.example/hooks/abc"}, "lang": {"zh"}})
	if status != http.StatusSeeOther || loc != "/desk/webhooks?done=chat" {
		t.Fatalf("desk form: %d %q", status, loc)
	}
	e.CaughtUp()
	audit := e.Page(pub, "/desk/audit?lang=en", http.StatusOK).Text()
	if !strings.Contains(audit, "Set the chat webhook to https://mattermost.example (zh)") || strings.Contains(audit, "hooks/abc") ||
		strings.Contains(audit, "T0/B0/secret") {
		t.Errorf("the audit trail must show the chat webhook's host only")
	}
}
