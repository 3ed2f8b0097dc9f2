package desk_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestProposalBadInput: every malformed or invalid post is refused with its
// status, appends nothing, and (for the ones a user can correct) shows the
// form again with the message, the values typed and the same cmd_id.
func TestProposalBadInput(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	c := e.Client("editor")
	target := "/desk/proposals/" + webtest.DemoDraft + "/evidence"
	raw := func(body string, want int) {
		t.Helper()
		before := e.LastSeq()
		res, page := c.Do(http.MethodPost, target, strings.NewReader(body),
			http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
		if res.StatusCode != want || e.LastSeq() != before {
			t.Errorf("status %d (want %d), %d events appended; %.200s", res.StatusCode, want, e.LastSeq()-before, page)
		}
	}
	raw("claim=%ff%fe&source_name=s&excerpt=x&observed_on=2026-01-01&cmd_id="+events.NewID(time.Now()), http.StatusBadRequest)
	raw("claim="+strings.Repeat("a", httpx.MaxBody+10), http.StatusRequestEntityTooLarge)

	commandID := events.NewID(time.Now())
	doc := e.Refused(c, target, url.Values{"claim_en": {"Bad link"}, "source_url": {"javascript:alert(1)"},
		"excerpt": {"x"}, "observed_on": {"2026-01-01"}, httpx.CommandIDField: {commandID}}, http.StatusUnprocessableEntity)
	if got := webtest.TestText(doc, "field-error-source_url"); got != "Source URL must be an http or https URL." {
		t.Errorf("source_url error %q", got)
	}
	form := doc.Find(`[data-testid="evidence-form"]`)
	if form.Find(`input[name="claim_en"]`).AttrOr("value", "") != "Bad link" || form.Find(`input[name="cmd_id"]`).AttrOr("value", "") != commandID {
		t.Error("the re-rendered form lost the typed values or the cmd_id")
	}
	if form.Find(`input[name="source_url"]`).AttrOr("aria-invalid", "") != "true" {
		t.Error("the faulty field is not marked invalid")
	}

	changes := "/desk/proposals/" + webtest.DemoDraft + "/changes"
	score := func(to string) url.Values {
		return url.Values{"criterion": {demo.CritCluster}, "to": {to}, "rationale": {"r"}, "evidence": {"e1"}}
	}
	doc = e.Refused(c, changes, score("11"), http.StatusUnprocessableEntity)
	if got := webtest.TestText(doc, "field-error-to"); got != "New value must be an integer from 0 to 10." {
		t.Errorf("score 11: %q", got)
	}
	if doc.Find(`[data-testid="score-form"] input[name="to"]`).AttrOr("value", "") != "11" {
		t.Error("the score form lost the typed value")
	}
	e.Refused(c, changes, score("ten"), http.StatusUnprocessableEntity)
	e.Refused(c, changes, url.Values{"criterion": {"nope"}, "to": {"5"}, "rationale": {"r"}, "evidence": {"e1"}}, http.StatusUnprocessableEntity)
	e.Refused(c, changes, url.Values{"criterion": {demo.CritCluster}, "to": {"5"}, "rationale": {"r"}, "evidence": {"e99"}}, http.StatusUnprocessableEntity)
	e.Refused(c, changes, url.Values{"attribute": {demo.AttrBilling}, "to": {"not-a-tag"}, "rationale": {"r"}, "evidence": {"e1"}}, http.StatusUnprocessableEntity)

	// Chinese readers get the message in Chinese.
	zh := e.Client("editor")
	zh.Header.Set("Accept-Language", "zh-CN")
	doc = e.Refused(zh, changes, score("11"), http.StatusUnprocessableEntity)
	if got := webtest.TestText(doc, "field-error-to"); got != "新值须为 0 到 10 之间的整数。" {
		t.Errorf("zh score 11: %q", got)
	}

	// A reject needs a reason.
	r2 := e.Client("reviewer2")
	doc = e.Refused(r2, "/desk/proposals/"+webtest.DemoInReview+"/votes", url.Values{"verdict": {"reject"}, "revision": {"1"}}, http.StatusUnprocessableEntity)
	if webtest.TestText(doc, "field-error-comment") == "" || webtest.TestCount(doc, "reject-vote-form") != 1 {
		t.Error("a reject without reason is not explained in the reject form")
	}
}

// TestStaleRevisionVote: a reviewer who loaded revision 1 and votes after
// the editor revised and resubmitted gets 409 and the page of the new revision.
func TestStaleRevisionVote(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	r2 := e.Client("reviewer2")
	doc := e.Page(r2, "/desk/proposals/"+webtest.DemoInReview, http.StatusOK)
	form := doc.Find(`[data-testid="approve-form"]`)
	rev := form.Find(`input[name="revision"]`).AttrOr("value", "")
	commandID := form.Find(`input[name="cmd_id"]`).AttrOr("value", "")
	if rev != "1" || commandID == "" {
		t.Fatalf("approve form: revision %q cmd_id %q", rev, commandID)
	}
	ed := e.Client("editor")
	e.MustPost(ed, webtest.DemoInReview, "revise", url.Values{"note": {"New figures"}})
	e.MustPost(ed, webtest.DemoInReview, "submit", url.Values{})
	doc = e.Refused(r2, "/desk/proposals/"+webtest.DemoInReview+"/votes",
		url.Values{"verdict": {"approve"}, "revision": {rev}, "verified_evidence": {"e1"}, httpx.CommandIDField: {commandID}}, http.StatusConflict)
	if got := webtest.TestText(doc, "form-error"); got != "The proposal has a newer revision; reload the page." {
		t.Errorf("message %q", got)
	}
	if got := doc.Find(`[data-testid="proposal"]`).AttrOr("data-revision", ""); got != "2" {
		t.Errorf("the page shown is of revision %q, want 2", got)
	}
}
