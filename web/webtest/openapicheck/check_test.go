package openapicheck_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web/webtest/openapicheck"
)

// recordingTB keeps what Check reports instead of failing.
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
			openapicheck.Check(rec, c.method, c.target, http.Header{"Content-Type": {"application/json"}}, []byte(c.reqBody), res, []byte(c.resBody))
			got := strings.Join(rec.errs, "\n")
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("report %q, want %q", got, c.want)
			}
		})
	}
}
