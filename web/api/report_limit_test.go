package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestReportTooLargeNamesItsLimit (issue 41 item 5): a report past its
// 32 KiB limit is answered 413 naming 32 KiB, not the 1 MiB of other
// requests, in both languages and through both doors (the API and the
// entry page's form).
func TestReportTooLargeNamesItsLimit(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	if command.MaxReportBody != 32<<10 {
		t.Fatalf("MaxReportBody is %d: this test names 32 KiB", command.MaxReportBody)
	}
	text := strings.Repeat("a", command.MaxReportBody+1024)
	doors := []struct {
		name, target, body, contentType string
	}{
		{"api", "/api/v1/rankings/" + webtest.DemoRanking + "/reports",
			`{"entry":"x","kind":"other","text":"` + text + `"}`, "application/json"},
		{"form", "/r/" + webtest.DemoRanking + "/e/x/reports",
			url.Values{"kind": {"other"}, "text": {text}}.Encode(), "application/x-www-form-urlencoded"},
	}
	for _, d := range doors {
		for lang, want := range map[string]string{"en": "larger than the limit of 32 KiB", "zh-CN": "报告超过 32 KiB 的上限"} {
			c := e.Client("")
			res, raw := c.Do(http.MethodPost, d.target, strings.NewReader(d.body), http.Header{
				"Content-Type": {d.contentType}, "Accept-Language": {lang}, "Origin": {"http://example.com"}})
			if res.StatusCode != http.StatusRequestEntityTooLarge {
				t.Errorf("%s (%s): status %d, want 413; %.300s", d.name, lang, res.StatusCode, raw)
				continue
			}
			if d.name == "api" {
				raw = webtest.DecodeProblem(t, res, raw).Detail
			}
			if !strings.Contains(raw, want) || strings.Contains(raw, "1 MiB") {
				t.Errorf("%s (%s): the answer says %.300q, want %q and no 1 MiB", d.name, lang, raw, want)
			}
		}
	}
}
