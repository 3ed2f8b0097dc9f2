package web

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	verrors "github.com/pb33f/libopenapi-validator/errors"

	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest/openapicheck"
)

// The OpenAPI check lives in web/webtest/openapicheck, shared with the
// tests outside this package; these names keep this package's tests as
// they were.
var openAPI = openapicheck.Validator

func checkOpenAPI(t testing.TB, method, target string, header http.Header, reqBody []byte, res *http.Response, resBody []byte) {
	t.Helper()
	openapicheck.Check(t, method, target, header, reqBody, res, resBody)
}

func describe(e *verrors.ValidationError) string { return openapicheck.Describe(e) }

// TestOpenAPIDocument checks that the document served is a valid OpenAPI
// 3.1 document and names every /api/v1 route the route lists register, so
// a new route cannot go undocumented.
func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	res, body := e.client().do(http.MethodGet, "/api/v1/openapi.json", nil, nil)
	if res.StatusCode != http.StatusOK || body != string(api.OpenAPI) {
		t.Fatalf("GET /api/v1/openapi.json: %d, %d bytes; want 200 and the document", res.StatusCode, len(body))
	}
	v, err := openAPI()
	if err != nil {
		t.Fatal(err)
	}
	if ok, errs := v.ValidateDocument(); !ok {
		for _, e := range errs {
			t.Errorf("document: %s", describe(e))
		}
	}
	var doc struct {
		OpenAPI string `json:"openapi"`
		Paths   map[string]map[string]struct {
			Responses map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(api.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.1.") {
		t.Errorf("openapi = %q, want 3.1.x", doc.OpenAPI)
	}
	// Every operation lists the 4XX it answers (redocly's
	// operation-4xx-response rule), not only a default.
	for path, ops := range doc.Paths {
		for method, op := range ops {
			if !slices.ContainsFunc(slices.Collect(maps.Keys(op.Responses)), func(s string) bool { return s[0] == '4' }) {
				t.Errorf("%s %s lists no 4XX response", strings.ToUpper(method), path)
			}
		}
	}
	route := regexp.MustCompile(`"(GET|POST|PUT|PATCH|DELETE) (/api/v1/[^"]*)"`)
	for _, file := range []string{"api/routes.go", "site/site.go", "desk/desk.go"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		found := route.FindAllStringSubmatch(string(src), -1)
		if len(found) == 0 {
			t.Errorf("%s: no /api/v1 route found; the route pattern no longer reads the file", file)
		}
		for _, m := range found {
			if _, ok := doc.Paths[m[2]][strings.ToLower(m[1])]; !ok {
				t.Errorf("%s registers %s %s; the document lacks it", file, m[1], m[2])
			}
		}
	}
}

// TestOpenAPIRarerRoutes exercises the routes no other web test calls, so
// each documented operation is validated at least once: removing an
// evidence item and dismissing a veto.
func TestOpenAPIRarerRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob, pat := e.client(), e.client(), e.client()
	alice.login("alice")
	bob.login("bob")
	pat.login("pat")
	jsonHeader := http.Header{"Content-Type": {"application/json"}}

	draft := e.openProposal(alice, "vast")
	if res, body := alice.postJSON("/api/v1/proposals/"+draft+"/evidence", map[string]any{
		"claim": "cheap", "source_name": "Market overview", "excerpt": "it is cheap", "observed_on": "2026-01-31"}, nil); res.StatusCode/100 != 2 {
		t.Fatalf("evidence: %d %s", res.StatusCode, body)
	}
	if res, body := alice.do(http.MethodDelete, "/api/v1/proposals/"+draft+"/evidence/e1", strings.NewReader("{}"), jsonHeader); res.StatusCode != http.StatusOK {
		t.Fatalf("remove evidence: %d %s", res.StatusCode, body)
	}

	id := e.reviewable(alice, "lambda")
	if res, body := bob.postJSON("/api/v1/proposals/"+id+"/votes", map[string]any{
		"verdict": "reject", "revision": 1, "verified_evidence": []string{"e1"}, "comment": "stale"}, nil); res.StatusCode/100 != 2 {
		t.Fatalf("veto: %d %s", res.StatusCode, body)
	}
	if res, body := pat.postJSON("/api/v1/proposals/"+id+"/dismiss-veto", map[string]any{"voter": "bob", "reason": "source refreshed"}, nil); res.StatusCode != http.StatusOK {
		t.Fatalf("dismiss veto: %d %s", res.StatusCode, body)
	}
}

// recordingTB keeps what checkOpenAPI reports instead of failing.
type recordingTB struct {
	testing.TB
	errs []string
}

func (r *recordingTB) Helper()                   {}
func (r *recordingTB) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }

// TestOpenAPICheckCatches shows the check fails on what it should: a
// response off its schema, a route the document lacks, and a request the
// document refuses that the server accepted.
func TestOpenAPICheckCatches(t *testing.T) {
	t.Parallel()
	jsonRes := func(status int) *http.Response {
		return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json; charset=utf-8"}}}
	}
	for _, c := range []struct {
		name, method, target string
		reqBody, resBody     string
		status               int
		want                 string // in the report; "" for none
	}{
		{"good", "GET", "/api/v1/rankings", "", `{"rankings":[]}`, 200, ""},
		{"bad response", "GET", "/api/v1/rankings", "", `{"rankings":[{"slug":1}]}`, 200, "GET /api/v1/rankings: the 200 response"},
		{"undocumented field", "GET", "/api/v1/rankings", "", `{"rankings":[],"attention":1}`, 200, "GET /api/v1/rankings: the 200 response"},
		{"problem extension member", "GET", "/api/v1/rankings/nope", "", `{"type":"about:blank","title":"Not Found","status":404,"preview":{}}`, 404, ""},
		{"undocumented", "GET", "/api/v1/nothing", "", `{}`, 200, "is not in the document"},
		{"undocumented refusal", "GET", "/api/v1/rankings", "", `{"type":"about:blank","title":"Conflict","status":409}`, 409, "answered 409, which the document does not list"},
		{"unknown route refused", "GET", "/api/v1/nothing", "", `{"type":"about:blank","title":"Not Found","status":404}`, 404, ""},
		{"bad request accepted", "POST", "/api/v1/proposals/p1/submit", `{"extra":1}`, `{"id":"p1","command":"c","sequence":3}`, 200, "the document refuses a request"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			res := jsonRes(c.status)
			if c.status >= 400 {
				res.Header.Set("Content-Type", "application/problem+json")
			}
			checkOpenAPI(rec, c.method, c.target, http.Header{"Content-Type": {"application/json"}}, []byte(c.reqBody), res, []byte(c.resBody))
			got := strings.Join(rec.errs, "\n")
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("report %q, want %q", got, c.want)
			}
		})
	}
}
