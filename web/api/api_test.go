package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
	"github.com/crossrank/crossrank/web/webtest"
)

func TestAPIWriteNeedsSignIn(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	before := e.LastSeq()
	res, body := e.Client().PostJSON("/api/v1/proposals", map[string]any{"ranking": webtest.Ranking, "entry": "x", "title": "t"}, nil)
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status %d, want 401", res.StatusCode)
	}
	if !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("WWW-Authenticate = %q", res.Header.Get("WWW-Authenticate"))
	}
	if p := webtest.DecodeProblem(t, res, body); p.Type != "urn:crossrank:problem:unauthenticated" || p.Instance != "/api/v1/proposals" {
		t.Errorf("problem %+v", p)
	}
	if e.LastSeq() != before {
		t.Error("an unauthenticated write appended events")
	}
}

// TestAPIProposalLifecycle runs a proposal from opening to publication
// through the API, as the desk would.
func TestAPIProposalLifecycle(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	alice, bob, carol, pat := e.Client(), e.Client(), e.Client(), e.Client()
	for c, u := range map[*webtest.Client]string{alice: "alice", bob: "bob", carol: "carol", pat: "pat"} {
		c.Login(u)
	}
	id := e.Reviewable(alice, "lambda")
	if got := e.Waiter.Waited(); len(got) < 4 {
		t.Errorf("waited for %v, want a wait after each of the 4 commands", got)
	}

	for _, c := range []*webtest.Client{bob, carol} {
		res, body := c.PostJSON("/api/v1/proposals/"+id+"/votes",
			map[string]any{"verdict": "approve", "revision": 1, "verified_evidence": []string{"e1"}, "comment": "checked"}, nil)
		if res.StatusCode != http.StatusCreated || res.Header.Get("Location") != "/api/v1/proposals/"+id {
			t.Fatalf("vote: status %d Location %q body %s", res.StatusCode, res.Header.Get("Location"), body)
		}
	}
	res, body := bob.Do(http.MethodGet, "/api/v1/proposals/"+id, nil, nil)
	var pj api.Proposal
	if err := json.Unmarshal([]byte(body), &pj); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET proposal: %d %v %s", res.StatusCode, err, body)
	}
	if pj.Status != domain.StatusCrossValidated || !pj.Quorum.Met || len(pj.Quorum.Approvers) != 2 || len(pj.Evidence) != 1 {
		t.Fatalf("proposal after two approvals: %+v", pj)
	}

	pv, _, err := e.Cmd.PreviewEdition(webtest.Context(t), webtest.Ranking, []string{id})
	if err != nil {
		t.Fatal(err)
	}
	res, body = pat.PostJSON("/api/v1/rankings/"+webtest.Ranking+"/editions",
		map[string]any{"proposals": []string{id}, "preview_hash": pv.Hash}, nil)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("publish: status %d body %s", res.StatusCode, body)
	}
	if got, want := res.Header.Get("Location"), "/api/v1/rankings/"+webtest.Ranking+"/editions/1"; got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
	var cr command.Response
	_ = json.Unmarshal([]byte(body), &cr)
	if cr.ID != "1" || cr.Sequence != e.LastSeq() {
		t.Errorf("publish answer %+v, last sequence %d", cr, e.LastSeq())
	}
}

func TestAPIValidation(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("alice")
	before := e.LastSeq()
	cases := []struct {
		name  string
		body  string
		ctype string
		want  int
		field string
	}{
		{"missing title", `{"ranking":"gpu","entry":"x","title":""}`, "application/json", 422, "title"},
		{"bad website", `{"ranking":"gpu","entry":"x","title":"t","new_entry":{"name":{"en":"X"},"category":"cloud","website":"javascript:alert(1)"}}`, "application/json", 422, "website"},
		{"unknown ranking", `{"ranking":"nope","entry":"x","title":"t"}`, "application/json", 404, ""},
		{"malformed JSON", `{"ranking":`, "application/json", 400, ""},
		{"trailing data", `{"ranking":"gpu"} {}`, "application/json", 400, ""},
		{"unknown field", `{"ranking":"gpu","entry":"x","title":"t","admin":true}`, "application/json", 400, "admin"},
		{"wrong type", `{"ranking":"gpu","entry":"x","title":42}`, "application/json", 400, "title"},
		{"not an object", `[1,2]`, "application/json", 400, "body"},
		{"invalid UTF-8", "{\"ranking\":\"gpu\",\"entry\":\"x\",\"title\":\"\xff\xfe\"}", "application/json", 400, "body"},
		// encoding/json would let the second title win, silently.
		{"duplicate key", `{"ranking":"gpu","entry":"x","title":"shown","title":"stored"}`, "application/json", 400, "title"},
		{"duplicate nested key", `{"ranking":"gpu","entry":"x","title":"t","new_entry":{"name":{"en":"X","en":"Y"},"category":"cloud"}}`, "application/json", 400, "new_entry.name.en"},
		{"lone surrogate", `{"ranking":"gpu","entry":"x","title":"a\ud800b"}`, "application/json", 400, "title"},
		{"form body", `ranking=gpu`, "application/x-www-form-urlencoded", 415, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, body := c.Do(http.MethodPost, "/api/v1/proposals", strings.NewReader(tc.body), http.Header{"Content-Type": {tc.ctype}})
			if res.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, tc.want, body)
			}
			p := webtest.DecodeProblem(t, res, body)
			if tc.field != "" && (len(p.Errors) != 1 || p.Errors[0].Field != tc.field || p.Errors[0].Message == "") {
				t.Errorf("errors = %+v, want field %q", p.Errors, tc.field)
			}
		})
	}
	if e.LastSeq() != before {
		t.Error("a refused write appended events")
	}
}

// TestAPIMediaTypeMessage checks that the 415 of the JSON API names what
// the API accepts, in both languages, and does not invite a form.
func TestAPIMediaTypeMessage(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("alice")
	for _, tc := range []struct{ lang, want, notWant string }{
		{"en", "The API accepts only application/json: send the request body as JSON.", "form"},
		{"zh-CN", "API 只接受 application/json：请以 JSON 格式发送请求内容。", "表单"},
	} {
		res, body := c.Do(http.MethodPost, "/api/v1/proposals", strings.NewReader("ranking=gpu"),
			http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept-Language": {tc.lang}})
		if res.StatusCode != http.StatusUnsupportedMediaType {
			t.Fatalf("%s: status %d, want 415", tc.lang, res.StatusCode)
		}
		if p := webtest.DecodeProblem(t, res, body); p.Detail != tc.want || strings.Contains(p.Detail, tc.notWant) {
			t.Errorf("%s: detail %q, want %q", tc.lang, p.Detail, tc.want)
		}
	}
	// A form address refused JSON says it wants a form, not JSON.
	for _, lang := range []string{i18n.En, i18n.Zh} {
		if got := httpx.Message(lang, httpx.ErrNotForm); strings.Contains(got, "json") {
			t.Errorf("%s: form 415 says %q", lang, got)
		}
	}
}

func TestAPIProblemInChinese(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("alice")
	res, body := c.PostJSON("/api/v1/proposals", map[string]any{"ranking": webtest.Ranking, "entry": "x", "title": ""},
		http.Header{"Accept-Language": {"zh-CN,zh;q=0.9,en;q=0.8"}})
	p := webtest.DecodeProblem(t, res, body)
	if p.Title != "请检查输入" || p.Detail != "标题为必填项。" || p.Errors[0].Message != "标题为必填项。" {
		t.Errorf("problem %+v", p)
	}
}

func TestAPIBodyTooLarge(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("alice")
	big := `{"ranking":"gpu","entry":"x","title":"` + strings.Repeat("a", httpx.MaxBody) + `"}`
	res, body := c.PostJSON("/api/v1/proposals", big, nil)
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", res.StatusCode)
	}
	webtest.DecodeProblem(t, res, body)
	res, _ = c.Do(http.MethodPost, "/login", strings.NewReader("username=alice&password="+strings.Repeat("a", httpx.MaxBody)),
		http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("form: status %d, want 413", res.StatusCode)
	}
}

func TestFormInvalidUTF8(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	res, _ := e.Client().Do(http.MethodPost, "/login", strings.NewReader("username=%ff%fe&password=x"),
		http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("status %d, want 400", res.StatusCode)
	}
	res, _ = e.Client().Do(http.MethodPost, "/login", strings.NewReader("a=%zz"),
		http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("malformed form: status %d, want 400", res.StatusCode)
	}
}

func TestAPIForbiddenAppendsNothing(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	alice, eve, pat := e.Client(), e.Client(), e.Client()
	alice.Login("alice")
	eve.Login("eve")
	pat.Login("pat")
	mine := e.Reviewable(alice, "alpha")
	evesOwn := e.Reviewable(eve, "beta")
	vote := map[string]any{"verdict": "approve", "revision": 1, "verified_evidence": []string{"e1"}}
	cases := []struct {
		name   string
		c      *webtest.Client
		path   string
		body   any
		reason error
	}{
		{"editor votes", alice, "/api/v1/proposals/" + mine + "/votes", vote, domain.ErrRoleRequired},
		{"author votes on own proposal", eve, "/api/v1/proposals/" + evesOwn + "/votes", vote, domain.ErrSelfApproval},
		{"reviewer publishes", eve, "/api/v1/rankings/" + webtest.Ranking + "/editions", map[string]any{"proposals": []string{mine}, "preview_hash": strings.Repeat("0", 64)}, domain.ErrRoleRequired},
		{"publisher edits", pat, "/api/v1/proposals/" + mine + "/submit", nil, domain.ErrRoleRequired},
		{"another editor withdraws", eve, "/api/v1/proposals/" + mine + "/withdraw", nil, domain.ErrNotAuthor},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := e.LastSeq()
			res, body := tc.c.PostJSON(tc.path, orEmpty(tc.body), nil)
			if res.StatusCode != http.StatusForbidden {
				t.Fatalf("status %d, want 403: %s", res.StatusCode, body)
			}
			p := webtest.DecodeProblem(t, res, body)
			if want := httpx.Message(i18n.En, tc.reason); p.Detail != want {
				t.Errorf("detail %q, want %q", p.Detail, want)
			}
			if after := e.LastSeq(); after != before {
				t.Errorf("forbidden request appended events (%d → %d)", before, after)
			}
		})
	}
}

func TestAPIConflictAndNotFound(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	alice := e.Client()
	alice.Login("alice")
	id := e.Reviewable(alice, "gamma")
	res, body := alice.PostJSON("/api/v1/proposals/"+id+"/submit", map[string]any{}, nil)
	if res.StatusCode != http.StatusConflict {
		t.Errorf("submit twice: status %d, want 409: %s", res.StatusCode, body)
	}
	res, _ = alice.PostJSON("/api/v1/proposals/no-such/submit", map[string]any{}, nil)
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("missing proposal: status %d, want 404", res.StatusCode)
	}
}

func TestAPIDoubleSubmitIsOneEvent(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("alice")
	open := map[string]any{"ranking": webtest.Ranking, "entry": "delta", "title": "Add delta",
		"new_entry": map[string]any{"name": map[string]string{"en": "Delta"}, "category": "cloud"}}

	for _, tc := range []struct {
		name   string
		header http.Header
		body   map[string]any
	}{
		{"Idempotency-Key", http.Header{"Idempotency-Key": {"open-delta-1"}}, open},
		{"body id", nil, merge(open, map[string]any{"entry": "epsilon", "id": events.NewID(time.Now())})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.LastSeq()
			res1, body1 := c.PostJSON("/api/v1/proposals", tc.body, tc.header)
			mid := e.LastSeq()
			res2, body2 := c.PostJSON("/api/v1/proposals", tc.body, tc.header)
			if res1.StatusCode != http.StatusCreated || res2.StatusCode != http.StatusCreated {
				t.Fatalf("statuses %d, %d: %s / %s", res1.StatusCode, res2.StatusCode, body1, body2)
			}
			var a, b command.Response
			_ = json.Unmarshal([]byte(body1), &a)
			_ = json.Unmarshal([]byte(body2), &b)
			// The retry points at the first run's events (which of them is
			// the domain's business), and stores nothing.
			if a.ID != b.ID || b.Sequence <= before || b.Sequence > a.Sequence || !b.Replayed || a.Replayed {
				t.Errorf("first %+v, second %+v", a, b)
			}
			if mid-before != 2 || e.LastSeq() != mid {
				t.Errorf("sequences %d → %d → %d: want two events (entry, proposal) once", before, mid, e.LastSeq())
			}
		})
	}

	// The same key from another user is another command.
	eve := e.Client()
	eve.Login("eve")
	res, body := eve.PostJSON("/api/v1/proposals", merge(open, map[string]any{"entry": "zeta"}), http.Header{"Idempotency-Key": {"open-delta-1"}})
	if res.StatusCode != http.StatusCreated || strings.Contains(body, `"replayed":true`) {
		t.Errorf("another user's key: %d %s", res.StatusCode, body)
	}
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func TestAPINoWait(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("alice")
	id := e.OpenProposal(c, "theta")
	n := len(e.Waiter.Waited())
	res, body := c.PostJSON("/api/v1/proposals/"+id+"/evidence?nowait=1",
		map[string]any{"claim": "c", "source_name": "s", "excerpt": "x", "observed_on": "2026-01-01"}, nil)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	if len(e.Waiter.Waited()) != n {
		t.Error("?nowait=1 still waited for the read models")
	}
}

func TestAPIChanges(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("alice")
	id := e.OpenProposal(c, "iota")
	c.PostJSON("/api/v1/proposals/"+id+"/evidence", map[string]any{"claim": "c", "source_name": "s", "excerpt": "x", "observed_on": "2026-01-01"}, nil)
	cases := []struct {
		body string
		want int
	}{
		{`{"attribute":"billing","to":["hourly"],"rationale":"r","evidence":["e1"]}`, 200},
		{`{"criterion":"speed","to":7,"rationale":"r","evidence":["e1"]}`, 200},
		{`{"criterion":"speed","to":11,"rationale":"r","evidence":["e1"]}`, 422},
		{`{"criterion":"speed","to":["x"],"rationale":"r","evidence":["e1"]}`, 422},
		{`{"criterion":"speed","to":"seven","rationale":"r","evidence":["e1"]}`, 400},
		{`{"criterion":"speed","attribute":"billing","to":1,"rationale":"r","evidence":["e1"]}`, 422},
		{`{"attribute":"billing","to":["weekly"],"rationale":"r","evidence":["e1"]}`, 422},
		{`{"criterion":"speed","to":5,"rationale":"r","evidence":["e9"]}`, 422},
	}
	for _, tc := range cases {
		res, body := c.PostJSON("/api/v1/proposals/"+id+"/changes", tc.body, nil)
		if res.StatusCode != tc.want {
			t.Errorf("%s: status %d, want %d: %s", tc.body, res.StatusCode, tc.want, body)
		}
	}
	p, err := e.Cmd.Proposal(webtest.Context(t), id)
	if err != nil {
		t.Fatal(err)
	}
	if p.Scores["speed"].To != 7 || !slices.Equal(p.Attributes["billing"].To, []string{"hourly"}) {
		t.Errorf("changes %+v %+v", p.Scores, p.Attributes)
	}
	req, _ := http.NewRequest(http.MethodDelete, "/api/v1/proposals/"+id+"/changes/score:speed", nil)
	res, body := c.Do(req.Method, req.URL.String(), nil, nil)
	if res.StatusCode != http.StatusOK {
		t.Errorf("remove change: %d %s", res.StatusCode, body)
	}
}

func TestBearerToken(t *testing.T) {
	t.Parallel()
	now := time.Now()
	e := webtest.New(t, func(c *web.Config) { c.Now = func() time.Time { return now } })
	ctx := webtest.Context(t)
	issue := func(expires time.Time) string {
		id, _, full, hash := auth.NewToken(now)
		if _, err := e.Cmd.IssueToken(ctx, domain.System(), domain.IssueToken{User: "alice", TokenID: id, Name: "ci", Hash: hash, ExpiresAt: expires}); err != nil {
			t.Fatal(err)
		}
		return full
	}
	tok := issue(time.Time{})
	api := e.Client()
	bearer := func(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }
	res, body := api.PostJSON("/api/v1/proposals", map[string]any{"ranking": webtest.Ranking, "entry": "kappa", "title": "t",
		"new_entry": map[string]any{"name": map[string]string{"en": "Kappa"}, "category": "cloud"}}, bearer(tok))
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("with token: status %d: %s", res.StatusCode, body)
	}
	var cr command.Response
	_ = json.Unmarshal([]byte(body), &cr)
	p, err := e.Cmd.Proposal(ctx, cr.ID)
	if err != nil || p.Author != "alice" {
		t.Fatalf("proposal %+v, %v: want author alice", p, err)
	}

	wrong := tok[:len(tok)-1] + map[bool]string{true: "0", false: "1"}[tok[len(tok)-1] != '0']
	expired := issue(now.Add(-time.Minute))
	for name, bad := range map[string]string{"wrong secret": wrong, "malformed": "crk_nope", "unknown": "crk_" + strings.Repeat("a", 36) + "_" + strings.Repeat("b", 64), "expired": expired} {
		res, body := api.Do(http.MethodGet, "/api/v1/proposals/"+cr.ID, nil, bearer(bad))
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s token: status %d: %s", name, res.StatusCode, body)
		}
	}

	id, _ := auth.ParseToken(tok)
	if _, err := e.Cmd.RevokeToken(ctx, domain.System(), domain.RevokeToken{User: "alice", TokenID: id}); err != nil {
		t.Fatal(err)
	}
	before := e.LastSeq()
	res, _ = api.PostJSON("/api/v1/proposals/"+cr.ID+"/submit", map[string]any{}, bearer(tok))
	if res.StatusCode != http.StatusUnauthorized || e.LastSeq() != before {
		t.Errorf("revoked token: status %d", res.StatusCode)
	}
}

func TestAPIIdempotencyKeyMismatch(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("alice")
	res, _ := c.PostJSON("/api/v1/proposals", map[string]any{"id": events.NewID(time.Now()), "ranking": webtest.Ranking, "entry": "x", "title": "t"},
		http.Header{"Idempotency-Key": {"other"}})
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("status %d, want 400", res.StatusCode)
	}
}

func TestStoreUnavailableIs503(t *testing.T) {
	t.Parallel()
	err := httpx.Status(events.ErrUnavailable)
	if err != http.StatusServiceUnavailable {
		t.Fatalf("httpx.Status(ErrUnavailable) = %d", err)
	}
	rec := httptest.NewRecorder()
	r, _ := http.NewRequestWithContext(httpx.NewContext(context.Background(), &httpx.Request{API: true, Lang: i18n.En, Log: slog.New(slog.DiscardHandler)}), http.MethodPost, "/api/v1/proposals", nil)
	ui.Fail(rec, r, events.ErrUnavailable)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "5" {
		t.Errorf("status %d Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	if !bytes.Contains(rec.Body.Bytes(), []byte("unavailable")) {
		t.Errorf("body %s", rec.Body)
	}
}

func orEmpty(v any) any {
	if v == nil {
		return map[string]any{}
	}
	return v
}
