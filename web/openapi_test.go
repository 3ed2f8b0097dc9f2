package web

import (
	"encoding/json"
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
