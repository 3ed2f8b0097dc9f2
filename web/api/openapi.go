package api

import (
	_ "embed"
	"net/http"
)

// OpenAPI is the OpenAPI 3.1 document of /api/v1, written by hand: it is
// the contract, and the web package's tests hold every request and
// response they make to it (see web/openapi_test.go). A new route gets
// its path there, in the order of Routes.
//
//go:embed openapi.json
var OpenAPI []byte

// openAPI serves the document.
func openAPI() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/json; charset=utf-8")
		h.Set("Cache-Control", "public, max-age=300")
		_, _ = w.Write(OpenAPI)
	})
}
