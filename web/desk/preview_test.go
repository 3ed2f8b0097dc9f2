package desk_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestDeskPreview walks an embargoed preview through the publish page's
// forms: the publisher creates one of a chosen proposal (the link shown
// once on the answer, never in a redirect), a signed-out reader opens the
// link, the list shows it active with its opening, the revoke button
// closes it (303 back) and the link answers 404. A reviewer may not post
// the form, and a past expiry is refused naming the field, storing nothing.
func TestDeskPreview(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	pub := e.Client("publisher")

	doc := e.Page(pub, "/desk/publish?ranking="+demo.RankingSlug+"&p="+webtest.DemoValidated, http.StatusOK)
	form := doc.Find(`[data-testid="preview-form-` + demo.RankingSlug + `"]`)
	if form.Length() != 1 || form.Find(`input[name="proposals"][value="`+webtest.DemoValidated+`"]`).Length() != 1 {
		t.Fatalf("no preview form for the chosen proposal")
	}
	if doc.Find(`[data-testid="previews-none"]`).Length() != 1 {
		t.Error("a new ranking lists previews")
	}
	values := func(expires time.Time) url.Values {
		return url.Values{"ranking": {demo.RankingSlug}, "proposals": {webtest.DemoValidated}, "zone": {"UTC"},
			"expires_local": {expires.UTC().Format("2006-01-02T15:04")}, "note": {"禁发至周一"}, "vendors": {"reviewer1"}}
	}

	// Refusals: a reviewer, and a past expiry (in both languages).
	e.Refused(e.Client("reviewer1"), "/desk/publish/previews", values(time.Now().Add(time.Hour)), http.StatusForbidden)
	past := e.Refused(pub, "/desk/publish/previews", values(time.Now().Add(-time.Hour)), http.StatusUnprocessableEntity)
	if msg := past.Find(`[data-testid="preview-form-` + demo.RankingSlug + `"] .field-error`).Text(); !strings.Contains(strings.ToLower(msg), "expiry") {
		t.Errorf("past expiry: field error %q does not name the field", msg)
	}
	pub.Header.Set("Accept-Language", "zh-CN")
	past = e.Refused(pub, "/desk/publish/previews", values(time.Now().Add(-time.Hour)), http.StatusUnprocessableEntity)
	if msg := past.Find(`[data-testid="preview-form-` + demo.RankingSlug + `"] .field-error`).Text(); !strings.Contains(msg, "到期时间") {
		t.Errorf("past expiry (zh): field error %q does not name the field", msg)
	}
	pub.Header.Del("Accept-Language")

	// Create: the answer is the page with the link, not a redirect.
	v := values(time.Now().Add(48 * time.Hour))
	status, loc, created := e.Post(pub, "/desk/publish/previews", v)
	link := strings.TrimSpace(created.Find(`[data-testid="preview-link"]`).Text())
	if status != http.StatusOK || loc != "" || !strings.Contains(link, "/preview/") {
		t.Fatalf("create: status %d Location %q link %q; error %q", status, loc, link, webtest.TestText(created, "form-error"))
	}
	path := link[strings.Index(link, "/preview/"):]
	// Sent again (a reload): nothing stored, no link shown.
	before := e.LastSeq()
	if status, _, again := e.Post(pub, "/desk/publish/previews", v); status != http.StatusOK ||
		again.Find(`[data-testid="preview-link"]`).Length() != 0 || again.Find(`[data-testid="preview-already"]`).Length() != 1 {
		t.Errorf("sent again: status %d, or the link shown twice", status)
	}
	if e.LastSeq() != before {
		t.Error("sending the form again stored something")
	}

	out := e.Client("")
	res, body := out.Do(http.MethodGet, path, nil, nil)
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="preview-banner"`) {
		t.Fatalf("the link signed out: %d %.300s", res.StatusCode, body)
	}
	e.CaughtUp()

	doc = e.Page(pub, "/desk/publish", http.StatusOK)
	rows := doc.Find(`[data-testid="previews-list"] tbody tr`)
	if rows.Length() != 1 || rows.AttrOr("data-status", "") != "active" ||
		strings.TrimSpace(rows.Find(`[data-testid="preview-openings"]`).Text()) != "1" {
		t.Fatalf("list: %d rows, status %q", rows.Length(), rows.AttrOr("data-status", ""))
	}
	if strings.Contains(doc.Text(), strings.TrimPrefix(path, "/preview/")) {
		t.Error("the publish page shows the token again")
	}
	id := strings.TrimPrefix(rows.AttrOr("data-testid", ""), "preview-row-")

	e.Refused(e.Client("reviewer1"), "/desk/publish/previews/revoke",
		url.Values{"ranking": {demo.RankingSlug}, "preview": {id}}, http.StatusForbidden)
	status, loc, _ = e.Post(pub, "/desk/publish/previews/revoke", url.Values{"ranking": {demo.RankingSlug}, "preview": {id}})
	if status != http.StatusSeeOther || loc != "/desk/publish#previews-"+demo.RankingSlug {
		t.Fatalf("revoke: status %d Location %q", status, loc)
	}
	if res, _ := out.Do(http.MethodGet, path, nil, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("the revoked link: %d", res.StatusCode)
	}
	e.CaughtUp()
	doc = e.Page(pub, "/desk/publish", http.StatusOK)
	row := doc.Find(`[data-testid="preview-row-` + id + `"]`)
	if row.AttrOr("data-status", "") != "revoked" || row.Find("form").Length() != 0 {
		t.Errorf("after revoking: status %q, forms %d", row.AttrOr("data-status", ""), row.Find("form").Length())
	}
	// Revoked twice: the page again with the message, nothing stored.
	again := e.Refused(pub, "/desk/publish/previews/revoke", url.Values{"ranking": {demo.RankingSlug}, "preview": {id}}, http.StatusConflict)
	if webtest.TestText(again, "form-error") == "" {
		t.Error("revoking twice shows no message")
	}
}
