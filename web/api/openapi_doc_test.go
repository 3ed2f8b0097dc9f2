package api_test

import (
	"testing"

	"github.com/crossrank/crossrank/domain/strictjson"
	"github.com/crossrank/crossrank/web/api"
)

// TestOpenAPINoDuplicateKeys: a JSON object with a key twice is read
// differently by different parsers (the last wins in Go, the first or an
// error elsewhere), so the document the API serves has none — an old
// AuditRow schema once sat beside the current one.
func TestOpenAPINoDuplicateKeys(t *testing.T) {
	if err := strictjson.Check(api.OpenAPI); err != nil {
		t.Fatal(err)
	}
}
