package web

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

func TestAPIWriteNeedsSignIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	before := e.lastSeq()
	res, body := e.client().postJSON("/api/v1/proposals", map[string]any{"ranking": testRanking, "entry": "x", "title": "t"}, nil)
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status %d, want 401", res.StatusCode)
	}
	if !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("WWW-Authenticate = %q", res.Header.Get("WWW-Authenticate"))
	}
	if p := decodeProblem(t, res, body); p.Type != "urn:crossrank:problem:unauthenticated" || p.Instance != "/api/v1/proposals" {
		t.Errorf("problem %+v", p)
	}
	if e.lastSeq() != before {
		t.Error("an unauthenticated write appended events")
	}
}

// TestAPIProposalLifecycle runs a proposal from opening to publication
// through the API, as the desk would.
func TestAPIProposalLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob, carol, pat := e.client(), e.client(), e.client(), e.client()
	for c, u := range map[*client]string{alice: "alice", bob: "bob", carol: "carol", pat: "pat"} {
		c.login(u)
	}
	id := e.reviewable(alice, "lambda")
	if got := e.waiter.waited(); len(got) < 4 {
		t.Errorf("waited for %v, want a wait after each of the 4 commands", got)
	}

	for _, c := range []*client{bob, carol} {
		res, body := c.postJSON("/api/v1/proposals/"+id+"/votes",
			map[string]any{"verdict": "approve", "revision": 1, "verified_evidence": []string{"e1"}, "comment": "checked"}, nil)
		if res.StatusCode != http.StatusCreated || res.Header.Get("Location") != "/api/v1/proposals/"+id {
			t.Fatalf("vote: status %d Location %q body %s", res.StatusCode, res.Header.Get("Location"), body)
		}
	}
	res, body := bob.do(http.MethodGet, "/api/v1/proposals/"+id, nil, nil)
	var pj api.Proposal
	if err := json.Unmarshal([]byte(body), &pj); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET proposal: %d %v %s", res.StatusCode, err, body)
	}
	if pj.Status != domain.StatusCrossValidated || !pj.Quorum.Met || len(pj.Quorum.Approvers) != 2 || len(pj.Evidence) != 1 {
		t.Fatalf("proposal after two approvals: %+v", pj)
	}

	pv, _, err := e.cmd.PreviewEdition(testContext(t), testRanking, []string{id})
	if err != nil {
		t.Fatal(err)
	}
	res, body = pat.postJSON("/api/v1/rankings/"+testRanking+"/editions",
		map[string]any{"proposals": []string{id}, "preview_hash": pv.Hash}, nil)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("publish: status %d body %s", res.StatusCode, body)
	}
	if got, want := res.Header.Get("Location"), "/api/v1/rankings/"+testRanking+"/editions/1"; got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
	var cr command.Response
	_ = json.Unmarshal([]byte(body), &cr)
	if cr.ID != "1" || cr.Sequence != e.lastSeq() {
		t.Errorf("publish answer %+v, last sequence %d", cr, e.lastSeq())
	}
}

func TestAPIValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client()
	c.login("alice")
	before := e.lastSeq()
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
			res, body := c.do(http.MethodPost, "/api/v1/proposals", strings.NewReader(tc.body), http.Header{"Content-Type": {tc.ctype}})
			if res.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, tc.want, body)
			}
			p := decodeProblem(t, res, body)
			if tc.field != "" && (len(p.Errors) != 1 || p.Errors[0].Field != tc.field || p.Errors[0].Message == "") {
				t.Errorf("errors = %+v, want field %q", p.Errors, tc.field)
			}
		})
	}
	if e.lastSeq() != before {
		t.Error("a refused write appended events")
	}
}

// TestAPIMediaTypeMessage checks that the 415 of the JSON API names what
// the API accepts, in both languages, and does not invite a form.
func TestAPIMediaTypeMessage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client()
	c.login("alice")
	for _, tc := range []struct{ lang, want, notWant string }{
		{"en", "The API accepts only application/json: send the request body as JSON.", "form"},
		{"zh-CN", "API 只接受 application/json：请以 JSON 格式发送请求内容。", "表单"},
	} {
		res, body := c.do(http.MethodPost, "/api/v1/proposals", strings.NewReader("ranking=gpu"),
			http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept-Language": {tc.lang}})
		if res.StatusCode != http.StatusUnsupportedMediaType {
			t.Fatalf("%s: status %d, want 415", tc.lang, res.StatusCode)
		}
		if p := decodeProblem(t, res, body); p.Detail != tc.want || strings.Contains(p.Detail, tc.notWant) {
			t.Errorf("%s: detail %q, want %q", tc.lang, p.Detail, tc.want)
		}
	}
	// A form address refused JSON says it wants a form, not JSON.
	for _, lang := range []string{langEn, langZh} {
		if got := httpx.Message(lang, httpx.ErrNotForm); strings.Contains(got, "json") {
			t.Errorf("%s: form 415 says %q", lang, got)
		}
	}
}

func TestAPIProblemInChinese(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client()
	c.login("alice")
	res, body := c.postJSON("/api/v1/proposals", map[string]any{"ranking": testRanking, "entry": "x", "title": ""},
		http.Header{"Accept-Language": {"zh-CN,zh;q=0.9,en;q=0.8"}})
	p := decodeProblem(t, res, body)
	if p.Title != "请检查输入" || p.Detail != "标题为必填项。" || p.Errors[0].Message != "标题为必填项。" {
		t.Errorf("problem %+v", p)
	}
}

func TestAPIBodyTooLarge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client()
	c.login("alice")
	big := `{"ranking":"gpu","entry":"x","title":"` + strings.Repeat("a", httpx.MaxBody) + `"}`
	res, body := c.postJSON("/api/v1/proposals", big, nil)
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", res.StatusCode)
	}
	decodeProblem(t, res, body)
	res, _ = c.do(http.MethodPost, "/login", strings.NewReader("username=alice&password="+strings.Repeat("a", httpx.MaxBody)),
		http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("form: status %d, want 413", res.StatusCode)
	}
}

func TestFormInvalidUTF8(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	res, _ := e.client().do(http.MethodPost, "/login", strings.NewReader("username=%ff%fe&password=x"),
		http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("status %d, want 400", res.StatusCode)
	}
	res, _ = e.client().do(http.MethodPost, "/login", strings.NewReader("a=%zz"),
		http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("malformed form: status %d, want 400", res.StatusCode)
	}
}

func TestAPIForbiddenAppendsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, eve, pat := e.client(), e.client(), e.client()
	alice.login("alice")
	eve.login("eve")
	pat.login("pat")
	mine := e.reviewable(alice, "alpha")
	evesOwn := e.reviewable(eve, "beta")
	vote := map[string]any{"verdict": "approve", "revision": 1, "verified_evidence": []string{"e1"}}
	cases := []struct {
		name   string
		c      *client
		path   string
		body   any
		reason error
	}{
		{"editor votes", alice, "/api/v1/proposals/" + mine + "/votes", vote, domain.ErrRoleRequired},
		{"author votes on own proposal", eve, "/api/v1/proposals/" + evesOwn + "/votes", vote, domain.ErrSelfApproval},
		{"reviewer publishes", eve, "/api/v1/rankings/" + testRanking + "/editions", map[string]any{"proposals": []string{mine}, "preview_hash": strings.Repeat("0", 64)}, domain.ErrRoleRequired},
		{"publisher edits", pat, "/api/v1/proposals/" + mine + "/submit", nil, domain.ErrRoleRequired},
		{"another editor withdraws", eve, "/api/v1/proposals/" + mine + "/withdraw", nil, domain.ErrNotAuthor},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := e.lastSeq()
			res, body := tc.c.postJSON(tc.path, orEmpty(tc.body), nil)
			if res.StatusCode != http.StatusForbidden {
				t.Fatalf("status %d, want 403: %s", res.StatusCode, body)
			}
			p := decodeProblem(t, res, body)
			if want := httpx.Message(langEn, tc.reason); p.Detail != want {
				t.Errorf("detail %q, want %q", p.Detail, want)
			}
			if after := e.lastSeq(); after != before {
				t.Errorf("forbidden request appended events (%d → %d)", before, after)
			}
		})
	}
}

func TestAPIConflictAndNotFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.client()
	alice.login("alice")
	id := e.reviewable(alice, "gamma")
	res, body := alice.postJSON("/api/v1/proposals/"+id+"/submit", map[string]any{}, nil)
	if res.StatusCode != http.StatusConflict {
		t.Errorf("submit twice: status %d, want 409: %s", res.StatusCode, body)
	}
	res, _ = alice.postJSON("/api/v1/proposals/no-such/submit", map[string]any{}, nil)
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("missing proposal: status %d, want 404", res.StatusCode)
	}
}

func TestAPIDoubleSubmitIsOneEvent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client()
	c.login("alice")
	open := map[string]any{"ranking": testRanking, "entry": "delta", "title": "Add delta",
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
			before := e.lastSeq()
			res1, body1 := c.postJSON("/api/v1/proposals", tc.body, tc.header)
			mid := e.lastSeq()
			res2, body2 := c.postJSON("/api/v1/proposals", tc.body, tc.header)
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
			if mid-before != 2 || e.lastSeq() != mid {
				t.Errorf("sequences %d → %d → %d: want two events (entry, proposal) once", before, mid, e.lastSeq())
			}
		})
	}

	// The same key from another user is another command.
	eve := e.client()
	eve.login("eve")
	res, body := eve.postJSON("/api/v1/proposals", merge(open, map[string]any{"entry": "zeta"}), http.Header{"Idempotency-Key": {"open-delta-1"}})
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

// TestFormDoubleSubmitIsOneEvent posts the same form (and cmd_id) twice
// through command.Form, as a double click would.
func TestFormDoubleSubmitIsOneEvent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var failures []ui.FormState
	e.srv.mux.Handle("POST /test/proposals/{id}/evidence", command.Form(e.srv.commands, command.AddEvidence,
		func(r *http.Request, in *command.AddEvidenceInput, _ handler.Result) string {
			return "/desk/proposals/" + in.Proposal
		},
		func(w http.ResponseWriter, r *http.Request, _ *command.AddEvidenceInput, st ui.FormState, status int) {
			failures = append(failures, st)
			w.WriteHeader(status)
		}))
	c := e.client()
	c.login("alice")
	id := e.openProposal(c, "eta")
	form := url.Values{"claim": {"fast"}, "source_name": {"Overview"}, "excerpt": {"fast"}, "observed_on": {"2026-02-01"},
		httpx.CommandIDField: {events.NewID(time.Now())}}
	before := e.lastSeq()
	for range 2 {
		res, body := c.postForm("/test/proposals/"+id+"/evidence", form)
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/desk/proposals/"+id {
			t.Fatalf("status %d Location %q: %s", res.StatusCode, res.Header.Get("Location"), body)
		}
	}
	if got := e.lastSeq() - before; got != 1 {
		t.Errorf("two submits appended %d events, want 1", got)
	}

	// A failing submit re-renders with the field marked, and nothing is stored.
	form.Set(httpx.CommandIDField, events.NewID(time.Now()))
	form.Set("valid_for_days", "soon")
	res, _ := c.postForm("/test/proposals/"+id+"/evidence", form)
	if res.StatusCode != http.StatusUnprocessableEntity || len(failures) != 1 || failures[0].Error("valid_for_days") == "" ||
		failures[0].CommandID != form.Get(httpx.CommandIDField) || failures[0].Value("claim") != "fast" {
		t.Errorf("status %d, failures %+v", res.StatusCode, failures)
	}
	if got := e.lastSeq() - before; got != 1 {
		t.Errorf("a failed submit appended events")
	}
}

func TestAPINoWait(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client()
	c.login("alice")
	id := e.openProposal(c, "theta")
	n := len(e.waiter.waited())
	res, body := c.postJSON("/api/v1/proposals/"+id+"/evidence?nowait=1",
		map[string]any{"claim": "c", "source_name": "s", "excerpt": "x", "observed_on": "2026-01-01"}, nil)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	if len(e.waiter.waited()) != n {
		t.Error("?nowait=1 still waited for the read models")
	}
}

func TestAPIChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client()
	c.login("alice")
	id := e.openProposal(c, "iota")
	c.postJSON("/api/v1/proposals/"+id+"/evidence", map[string]any{"claim": "c", "source_name": "s", "excerpt": "x", "observed_on": "2026-01-01"}, nil)
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
		res, body := c.postJSON("/api/v1/proposals/"+id+"/changes", tc.body, nil)
		if res.StatusCode != tc.want {
			t.Errorf("%s: status %d, want %d: %s", tc.body, res.StatusCode, tc.want, body)
		}
	}
	p, err := e.cmd.Proposal(testContext(t), id)
	if err != nil {
		t.Fatal(err)
	}
	if p.Scores["speed"].To != 7 || !slices.Equal(p.Attributes["billing"].To, []string{"hourly"}) {
		t.Errorf("changes %+v %+v", p.Scores, p.Attributes)
	}
	req, _ := http.NewRequest(http.MethodDelete, "/api/v1/proposals/"+id+"/changes/score:speed", nil)
	res, body := c.do(req.Method, req.URL.String(), nil, nil)
	if res.StatusCode != http.StatusOK {
		t.Errorf("remove change: %d %s", res.StatusCode, body)
	}
}

func TestBearerToken(t *testing.T) {
	t.Parallel()
	now := time.Now()
	e := newEnv(t, func(c *Config) { c.Now = func() time.Time { return now } })
	ctx := testContext(t)
	issue := func(expires time.Time) string {
		id, _, full, hash := auth.NewToken(now)
		if _, err := e.cmd.IssueToken(ctx, domain.System(), domain.IssueToken{User: "alice", TokenID: id, Name: "ci", Hash: hash, ExpiresAt: expires}); err != nil {
			t.Fatal(err)
		}
		return full
	}
	tok := issue(time.Time{})
	api := e.client()
	bearer := func(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }
	res, body := api.postJSON("/api/v1/proposals", map[string]any{"ranking": testRanking, "entry": "kappa", "title": "t",
		"new_entry": map[string]any{"name": map[string]string{"en": "Kappa"}, "category": "cloud"}}, bearer(tok))
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("with token: status %d: %s", res.StatusCode, body)
	}
	var cr command.Response
	_ = json.Unmarshal([]byte(body), &cr)
	p, err := e.cmd.Proposal(ctx, cr.ID)
	if err != nil || p.Author != "alice" {
		t.Fatalf("proposal %+v, %v: want author alice", p, err)
	}

	wrong := tok[:len(tok)-1] + map[bool]string{true: "0", false: "1"}[tok[len(tok)-1] != '0']
	expired := issue(now.Add(-time.Minute))
	for name, bad := range map[string]string{"wrong secret": wrong, "malformed": "crk_nope", "unknown": "crk_" + strings.Repeat("a", 36) + "_" + strings.Repeat("b", 64), "expired": expired} {
		res, body := api.do(http.MethodGet, "/api/v1/proposals/"+cr.ID, nil, bearer(bad))
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s token: status %d: %s", name, res.StatusCode, body)
		}
	}

	id, _ := auth.ParseToken(tok)
	if _, err := e.cmd.RevokeToken(ctx, domain.System(), domain.RevokeToken{User: "alice", TokenID: id}); err != nil {
		t.Fatal(err)
	}
	before := e.lastSeq()
	res, _ = api.postJSON("/api/v1/proposals/"+cr.ID+"/submit", map[string]any{}, bearer(tok))
	if res.StatusCode != http.StatusUnauthorized || e.lastSeq() != before {
		t.Errorf("revoked token: status %d", res.StatusCode)
	}
}

func TestAPIIdempotencyKeyMismatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client()
	c.login("alice")
	res, _ := c.postJSON("/api/v1/proposals", map[string]any{"id": events.NewID(time.Now()), "ranking": testRanking, "entry": "x", "title": "t"},
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
	r, _ := http.NewRequestWithContext(httpx.NewContext(context.Background(), &httpx.Request{API: true, Lang: langEn, Log: slog.New(slog.DiscardHandler)}), http.MethodPost, "/api/v1/proposals", nil)
	ui.Fail(rec, r, events.ErrUnavailable)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "5" {
		t.Errorf("status %d Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	if !bytes.Contains(rec.Body.Bytes(), []byte("unavailable")) {
		t.Errorf("body %s", rec.Body)
	}
}
