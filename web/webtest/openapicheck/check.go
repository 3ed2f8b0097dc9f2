// Package openapicheck holds the server to its OpenAPI document
// (web/api/openapi.json) in tests: every exchange a test has with /api/v1
// through a harness client is validated against it. It imports no server
// package, so package web's own tests and web/webtest share it.
package openapicheck

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	verrors "github.com/pb33f/libopenapi-validator/errors"

	"github.com/crossrank/crossrank/web/api"
)

// The OpenAPI document is held to the server by every test that talks to
// /api/v1 through a test client (package web's client.do and siteEnv.get, webtest.Client.Do): each request and its response
// are validated against web/api/openapi.json with pb33f's
// libopenapi-validator, which is built for OpenAPI 3.1 (JSON Schema
// 2020-12: type arrays, null, $ref beside siblings) rather than 3.0 with
// 3.1 bolted on. The check is strict (strictResponses): a response field
// the document does not name fails it.

// Validator is the validator, built once; openAPIMu serialises its use,
// which the library does not promise is safe across goroutines.
var (
	Validator = sync.OnceValues(func() (validator.Validator, error) {
		strict, err := strictResponses(api.OpenAPI)
		if err != nil {
			return nil, err
		}
		doc, err := libopenapi.NewDocument(strict)
		if err != nil {
			return nil, err
		}
		// Sign-in is the server's to check (401 is a documented problem).
		v, errs := validator.NewValidator(doc, config.WithoutSecurityValidation())
		if len(errs) > 0 {
			return nil, errs[0]
		}
		return v, nil
	})
	openAPIMu sync.Mutex
)

// Check validates one exchange with the API against the document;
// a mismatch fails t, naming the route. Requests outside /api/v1 pass.
//
// A request the document calls invalid passes when the server refused it
// too (4xx): tests send bad requests on purpose, and the document's
// schemas are allowed to be no looser than the server. A 2xx to such a
// request means the document is stricter than the server: a mismatch.
// A path or method the document lacks is a mismatch unless the server
// has no such route either (404, 405).
func Check(t testing.TB, method, target string, header http.Header, reqBody []byte, res *http.Response, resBody []byte) {
	t.Helper()
	if !strings.HasPrefix(target, "/api/v1/") {
		return
	}
	CheckDocumented(t, method, target, header, reqBody, res, resBody)
}

// CheckDocumented is Check for any path, for the operations the document
// holds outside /api/v1 (the downloads, .json documents, archives and
// mail links under /r/, /captures/ and /mail/): a test calls it on
// purpose, since most paths there are pages the document leaves out.
func CheckDocumented(t testing.TB, method, target string, header http.Header, reqBody []byte, res *http.Response, resBody []byte) {
	t.Helper()
	if method == http.MethodHead || method == http.MethodOptions {
		return
	}
	v, err := Validator()
	if err != nil {
		t.Fatalf("openapi: the document does not load: %v", err)
	}
	req := httptest.NewRequest(method, target, bytes.NewReader(reqBody))
	req.Header = header.Clone()
	openAPIMu.Lock()
	defer openAPIMu.Unlock()
	route := method + " " + req.URL.Path
	refused := res.StatusCode/100 == 4
	if ok, errs := v.ValidateHttpRequest(req); !ok {
		for _, e := range errs {
			if e.SpecPath != "" {
				route = method + " " + e.SpecPath
			}
			missing := e.IsPathMissingError() || e.IsOperationMissingError()
			switch {
			case missing && (res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusMethodNotAllowed):
				return // no such route, and the server agrees
			case missing:
				t.Errorf("openapi: %s answered %d but is not in the document", route, res.StatusCode)
				return
			case !refused:
				t.Errorf("openapi: %s: the document refuses a request the server answered %d: %s", route, res.StatusCode, Describe(e))
			}
		}
	}
	if msg := undocumentedRefusal(method, req.URL.Path, res.StatusCode); msg != "" {
		t.Errorf("openapi: %s %s", route, msg)
	}
	if res.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(resBody))
		if err != nil {
			t.Fatalf("openapi: %s: gzip body: %v", route, err)
		}
		if resBody, err = io.ReadAll(zr); err != nil {
			t.Fatalf("openapi: %s: gzip body: %v", route, err)
		}
	}
	vres := &http.Response{StatusCode: res.StatusCode, Header: res.Header.Clone(), Request: req,
		Body: io.NopCloser(bytes.NewReader(resBody))}
	req.Body = io.NopCloser(bytes.NewReader(reqBody))
	if ok, errs := v.ValidateHttpResponse(req, vres); !ok {
		for _, e := range errs {
			if e.SpecPath != "" {
				route = method + " " + e.SpecPath
			}
			t.Errorf("openapi: %s: the %d response does not match the document: %s\nbody: %.400s", route, res.StatusCode, Describe(e), resBody)
		}
	}
}

// Describe is e with its schema failures, which Error leaves terse.
func Describe(e *verrors.ValidationError) string {
	var b strings.Builder
	b.WriteString(e.Message)
	if e.Reason != "" {
		b.WriteString(": " + e.Reason)
	}
	for _, f := range e.SchemaValidationErrors {
		b.WriteString("; " + f.Error())
	}
	return b.String()
}
