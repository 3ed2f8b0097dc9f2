package desk_test

import (
	"maps"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestDeskWorkflow runs the desk's side of the editorial workflow through
// its forms: reviewers suggested and requested, the attention set, the
// inbox and its header count, threaded comments resolved, a conflict of
// interest declared and disclosed, and an edition scheduled and canceled.
func TestDeskWorkflow(t *testing.T) {
	t.Parallel()
	e := webtest.NewDemo(t)
	ed, r1, r2, pub := e.Client("editor"), e.Client("reviewer1"), e.Client("reviewer2"), e.Client("publisher")
	id := e.Reviewable(ed, "ppio", demo.CritGraphics, 9)

	// The editor sees reviewers suggested, the least loaded first.
	doc := e.Page(ed, "/desk/proposals/"+id, http.StatusOK)
	if doc.Find(`[data-testid="reviewers-form"] input[name="reviewers"]`).Length() < 2 {
		t.Fatalf("suggested reviewers: %q", webtest.TestText(doc, "reviewers-form"))
	}
	if doc.Find(`[data-testid="reviewer-editor"]`).Length() != 0 {
		t.Error("the author is suggested as a reviewer of their own proposal")
	}
	before := e.Page(r1, "/desk", http.StatusOK)
	if got := webtest.TestText(before, "inbox-unread"); got != "0" {
		t.Errorf("reviewer1's unread count before: %q, want 0", got)
	}
	e.MustPost(ed, id, "reviewers", url.Values{"reviewers": {"reviewer1"}})
	doc = e.Page(ed, "/desk/proposals/"+id, http.StatusOK)
	if got := webtest.TestText(doc, "attention-set"); got != "Waiting for: reviewer1" {
		t.Errorf("attention set: %q", got)
	}

	// reviewer1: the header counts it, the dashboard puts it first, the
	// inbox lists it unread.
	dash := e.Page(r1, "/desk", http.StatusOK)
	if got := webtest.TestText(dash, "inbox-unread"); got != "1" {
		t.Errorf("reviewer1's unread count: %q, want 1", got)
	}
	first := dash.Find(`[data-testid="queue-awaiting-review"] [data-testid="queue-item"]`).First()
	if _, ok := first.Attr("data-requested"); !ok || !strings.Contains(first.Find("a").AttrOr("href", ""), id) {
		t.Errorf("awaiting review does not start with the requested proposal: %q", first.Text())
	}
	inbox := e.Page(r1, "/desk/inbox", http.StatusOK)
	item := inbox.Find(`[data-testid="inbox-item"][data-kind="review_requested"]`)
	if item.Length() != 1 || item.AttrOr("data-unread", "") != "true" || !strings.Contains(item.Text(), "editor asked you to review") {
		t.Fatalf("inbox: %q", webtest.TestText(inbox, "inbox"))
	}
	zh := e.Client("reviewer1")
	zh.Header.Set("Accept-Language", "zh-CN")
	if got := webtest.TestText(e.Page(zh, "/desk/inbox", http.StatusOK), "inbox-item-link"); got != "editor 请你审核提案 Update ppio" { // by its title, not its id
		t.Errorf("inbox in Chinese: %q", got)
	}

	// Comments: reviewer1 on the evidence, the editor replies and resolves.
	e.MustPost(r1, id, "comments", url.Values{"on": {"evidence:e1"}, "body": {"Which page of the report?"}})
	doc = e.Page(ed, "/desk/proposals/"+id, http.StatusOK)
	if got := webtest.TestText(doc, "quorum-comments"); !strings.Contains(got, "c1") {
		t.Errorf("quorum explanation without the open comment: %q", webtest.TestText(doc, "quorum-summary"))
	}
	if got := webtest.TestText(doc, "attention-set"); !strings.Contains(got, "editor") {
		t.Errorf("the author is not in the attention set after a comment: %q", got)
	}
	mine := e.Page(ed, "/desk", http.StatusOK).Find(`[data-testid="queue-my-in-review"] [data-testid="queue-item"]`).First()
	if _, ok := mine.Attr("data-requested"); !ok || !strings.Contains(mine.Text(), "your turn") {
		t.Errorf("my proposals in review do not start with the one awaiting me: %q", mine.Text())
	}
	e.MustPost(ed, id, "comments", url.Values{"reply_to": {"c1"}, "body": {"Page 4."}})
	e.MustPost(ed, id, "comments/resolve", url.Values{"comment": {"c1"}})
	doc = e.Page(r1, "/desk/proposals/"+id, http.StatusOK)
	if doc.Find(`[data-testid="comment-c1"]`).AttrOr("data-resolved", "") != "true" ||
		!doc.Find(`[data-testid="comment-c2"]`).HasClass("comment-reply") {
		t.Errorf("comments: %q", webtest.TestText(doc, "comments"))
	}
	// Nobody but the comment's or the proposal's author resolves.
	e.MustPost(r1, id, "comments", url.Values{"body": {"Another point."}})
	e.Refused(r2, "/desk/proposals/"+id+"/comments/resolve", url.Values{"comment": {"c3"}}, http.StatusForbidden)

	// Mark all read empties the count.
	newest := e.Page(r1, "/desk/inbox", http.StatusOK).Find(`[data-testid="inbox-read-form"] input[name="up_to"]`).AttrOr("value", "")
	status, loc, _ := e.Post(r1, "/desk/inbox/read", url.Values{"up_to": {newest}})
	if status != http.StatusSeeOther || loc != "/desk/inbox" {
		t.Fatalf("mark read: %d %q", status, loc)
	}
	if got := webtest.TestText(e.Page(r1, "/desk/inbox", http.StatusOK), "inbox-unread"); got != "0" {
		t.Errorf("unread after marking read: %q", got)
	}

	// A private feed: its address is shown once, then it can be revoked.
	res, body := r1.PostForm("/desk/inbox/feed", url.Values{})
	if res.StatusCode != http.StatusCreated || !strings.Contains(body, "/feeds/inbox/reviewer1.atom?token=") {
		t.Fatalf("feed: %d %.300s", res.StatusCode, body)
	}
	if status, _, _ := e.Post(r1, "/desk/inbox/feed/revoke", url.Values{}); status != http.StatusSeeOther {
		t.Errorf("revoke feed: %d", status)
	}

	// A conflict of interest, declared on the entry page, disclosed on the
	// public methodology page.
	status, loc, _ = e.Post(r2, "/desk/conflicts", url.Values{"ranking": {webtest.DemoRanking}, "entry": {"ppio"},
		"entry_page": {"ppio"}, "reason": {"I consult for PPIO"}})
	if status != http.StatusSeeOther || loc != "/desk/entries/"+webtest.DemoRanking+"/ppio" {
		t.Fatalf("declare conflict: %d %q", status, loc)
	}
	if got := webtest.TestText(e.Page(r2, loc, http.StatusOK), "entry-conflict-list"); !strings.Contains(got, "I consult for PPIO") {
		t.Errorf("entry page conflicts: %q", got)
	}
	if got := webtest.TestText(e.Page(e.Client(""), "/r/"+webtest.DemoRanking+"/methodology", http.StatusOK), "conflicts"); !strings.Contains(got, "reviewer2") || !strings.Contains(got, "ppio") {
		t.Errorf("methodology conflicts: %q", got)
	}
	e.Refused(r2, "/desk/conflicts", url.Values{"ranking": {webtest.DemoRanking}, "entry": {"ppio"}, "entry_page": {"ppio"}, "reason": {"again"}}, http.StatusConflict)

	// reviewer2's approval does not count: the quorum says why.
	approve := url.Values{"verdict": {"approve"}, "revision": {"1"}, "verified_evidence": {"e1"}}
	e.MustPost(r2, id, "votes", maps.Clone(approve)) // post sets a command id in the values
	doc = e.Page(ed, "/desk/proposals/"+id, http.StatusOK)
	if got := webtest.TestText(doc, "quorum-conflicted"); !strings.Contains(got, "I consult for PPIO") {
		t.Errorf("quorum explanation without the conflict: %q", webtest.TestText(doc, "quorum-summary"))
	}
	e.MustPost(r1, id, "votes", maps.Clone(approve))
	e.MustPost(e.Client("eve"), id, "votes", maps.Clone(approve))

	// Scheduling: the publish page's form, refused in the past, then stored,
	// listed as upcoming and canceled.
	pubDoc := e.Page(pub, "/desk/publish?ranking="+webtest.DemoRanking+"&p="+id, http.StatusOK)
	form := pubDoc.Find(`[data-testid="schedule-form-` + webtest.DemoRanking + `"]`)
	if form.Length() != 1 {
		t.Fatalf("no schedule form: %q", pubDoc.Find("main").Text())
	}
	if got := form.Find(`select[name="zone"] option[selected]`).AttrOr("value", ""); got != "Asia/Shanghai" {
		t.Errorf("default zone %q", got)
	}
	values := url.Values{"ranking": {webtest.DemoRanking}, "proposals": {id}, "zone": {"Asia/Shanghai"},
		"preview_hash": {form.Find(`input[name="preview_hash"]`).AttrOr("value", "")}}
	sh, _ := time.LoadLocation("Asia/Shanghai")
	values.Set("at_local", time.Now().In(sh).Add(-time.Hour).Format("2006-01-02T15:04"))
	doc = e.Refused(pub, "/desk/publish/schedule", values, http.StatusUnprocessableEntity)
	if got := webtest.TestText(doc, "form-error"); !strings.Contains(got, "must be in the future") {
		t.Errorf("past moment: %q", got)
	}
	pubZh := e.Client("publisher")
	pubZh.Header.Set("Accept-Language", "zh-CN,zh;q=0.9")
	if got := webtest.TestText(e.Refused(pubZh, "/desk/publish/schedule", values, http.StatusUnprocessableEntity), "form-error"); !strings.Contains(got, "必须是将来的时间") {
		t.Errorf("past moment in Chinese: %q", got)
	}
	values.Set("at_local", time.Now().In(sh).Add(48*time.Hour).Format("2006-01-02T15:04"))
	values.Set("preview_hash", "0000000000000000000000000000000000000000000000000000000000000000")
	e.Refused(pub, "/desk/publish/schedule", values, http.StatusConflict)
	values.Set("preview_hash", form.Find(`input[name="preview_hash"]`).AttrOr("value", ""))
	status, loc, doc = e.Post(pub, "/desk/publish/schedule", values)
	if status != http.StatusSeeOther {
		t.Fatalf("schedule: %d %q", status, webtest.TestText(doc, "form-error"))
	}
	if loc != "/desk#queue-upcoming" {
		t.Errorf("scheduled: Location %q", loc)
	}
	dash = e.Page(pub, "/desk", http.StatusOK)
	up := dash.Find(`[data-testid="queue-upcoming"] [data-testid="queue-item"]`)
	if up.Length() != 1 || !strings.Contains(up.Text(), "(UTC+08:00)") || !strings.Contains(up.Text(), id) {
		t.Fatalf("upcoming: %q", webtest.TestText(dash, "queue-upcoming"))
	}
	cancel := url.Values{"ranking": {webtest.DemoRanking}, "schedule": {up.Find(`input[name="schedule"]`).AttrOr("value", "")}}
	if status, _, _ := e.Post(pub, "/desk/publish/schedule/cancel", cancel); status != http.StatusSeeOther {
		t.Fatalf("cancel: %d", status)
	}
	if n := e.Page(pub, "/desk", http.StatusOK).Find(`[data-testid="queue-upcoming"] [data-testid="queue-item"]`).Length(); n != 0 {
		t.Errorf("%d upcoming after cancel", n)
	}
}
