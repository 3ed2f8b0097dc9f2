package desk_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestDeskSignedOut: pages send a signed-out visitor to sign in and back;
// the API answers 401; a form post answers 401 and stores nothing.
func TestDeskSignedOut(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	c := e.Client("")
	for _, target := range []string{"/desk", "/desk/proposals/new", "/desk/proposals/" + webtest.DemoDraft,
		"/desk/proposals/" + webtest.DemoDraft + "/impact?criterion=onboarding&to=5"} {
		res, _ := c.Do(http.MethodGet, target, nil, nil)
		want := "/login?next=" + url.QueryEscape(target)
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != want {
			t.Errorf("GET %s: status %d Location %q, want 303 to %q", target, res.StatusCode, res.Header.Get("Location"), want)
		}
	}
	res, _ := c.Do(http.MethodGet, "/api/v1/proposals/"+webtest.DemoDraft, nil, nil)
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("API GET: status %d, want 401", res.StatusCode)
	}
	e.Refused(c, "/desk/proposals/"+webtest.DemoDraft+"/evidence", url.Values{"claim": {"x"}, "source_name": {"y"},
		"excerpt": {"z"}, "observed_on": {"2026-01-01"}}, http.StatusUnauthorized)
	e.Refused(c, "/desk/proposals", url.Values{"ranking": {webtest.DemoRanking}, "entry": {"ppio"}, "title": {"t"}}, http.StatusUnauthorized)
}

// TestDashboardQueues checks each role's queues against the demo seed: one
// draft of the editor's, one proposal in review (approved by reviewer1),
// one cross-validated, edition 1 published 40 days after its evidence was
// observed (so some of it is stale).
func TestDashboardQueues(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	p := func(id string) string { return "/desk/proposals/" + id }
	type want struct {
		count int
		links []string // nil: not checked
	}
	tests := []struct {
		user   string
		queues map[string]*want // nil entry: the queue is not shown
	}{
		{"editor", map[string]*want{
			"my-drafts":        {1, []string{p(webtest.DemoDraft)}},
			"my-in-review":     {2, nil},
			"awaiting-review":  nil,
			"ready-to-publish": nil,
			"recent":           {1, []string{"/r/" + webtest.DemoRanking + "/editions/1"}},
		}},
		{"reviewer1", map[string]*want{
			"my-drafts":        nil,
			"awaiting-review":  {0, nil}, // reviewer1 approved the one in review already
			"ready-to-publish": nil,
		}},
		{"reviewer2", map[string]*want{
			"awaiting-review": {1, []string{p(webtest.DemoInReview)}},
		}},
		{"publisher", map[string]*want{
			"my-drafts":        nil,
			"awaiting-review":  nil,
			"ready-to-publish": {1, []string{p(webtest.DemoValidated)}},
		}},
		{"eve", map[string]*want{
			"my-drafts":       {0, nil},
			"my-in-review":    {0, nil},
			"awaiting-review": {1, []string{p(webtest.DemoInReview)}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.user, func(t *testing.T) {
			doc := e.Page(e.Client(tc.user), "/desk", http.StatusOK)
			for id, w := range tc.queues {
				count, links, shown := webtest.Queue(doc, id)
				if w == nil {
					if shown {
						t.Errorf("queue %s shown to %s", id, tc.user)
					}
					continue
				}
				if !shown || count != w.count {
					t.Errorf("queue %s: shown %v count %d, want %d", id, shown, count, w.count)
				}
				if w.links != nil && strings.Join(links, " ") != strings.Join(w.links, " ") {
					t.Errorf("queue %s links %v, want %v", id, links, w.links)
				}
				if empty := webtest.TestCount(doc, "queue-"+id+"-empty"); (count == 0) != (empty == 1) {
					t.Errorf("queue %s: count %d but %d empty states", id, count, empty)
				}
				if got := webtest.TestText(doc, "count-"+id+"-value"); got != strconv.Itoa(w.count) {
					t.Errorf("queue %s: counter shows %q, want %d", id, got, w.count)
				}
			}
			// Everyone sees stale evidence and the recent editions.
			if n, _, shown := webtest.Queue(doc, "stale"); !shown || n == 0 {
				t.Errorf("stale queue: shown %v count %d, want stale items from the 40-day-old evidence", shown, n)
			}
			if _, _, shown := webtest.Queue(doc, "recent"); !shown {
				t.Error("recent queue not shown")
			}
		})
	}

	// The in-review item says where its quorum stands.
	doc := e.Page(e.Client("reviewer2"), "/desk", http.StatusOK)
	if note := doc.Find(`[data-testid="queue-awaiting-review"] [data-testid="queue-item-note"]`).Text(); !strings.Contains(note, "Needs 1 more approval") {
		t.Errorf("awaiting-review note %q, want the quorum in words", note)
	}
	// A publisher's ready queue leads to the publish page.
	doc = e.Page(e.Client("publisher"), "/desk", http.StatusOK)
	if href := doc.Find(`[data-testid="queue-ready-to-publish-link"]`).AttrOr("href", ""); href != paths.Publish {
		t.Errorf("ready-to-publish link %q, want %q", href, paths.Publish)
	}
}

// TestDashboardLanguages: the dashboard reads in the visitor's language,
// and only an editor is offered a new proposal.
func TestDashboardLanguages(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	c := e.Client("editor")
	c.Header.Set("Accept-Language", "zh-CN,zh;q=0.9")
	doc := e.Page(c, "/desk", http.StatusOK)
	if got := doc.Find("h1").First().Text(); got != "工作台" {
		t.Errorf("zh title %q", got)
	}
	if got := webtest.TestText(doc, "queue-my-drafts"); !strings.Contains(got, "我的草稿") {
		t.Errorf("zh drafts queue %q", got)
	}
	if webtest.TestCount(doc, "new-proposal") != 1 {
		t.Error("an editor is not offered a new proposal")
	}
	doc = e.Page(e.Client("reviewer1"), "/desk?lang=en", http.StatusOK)
	if got := doc.Find("h1").First().Text(); got != "Dashboard" {
		t.Errorf("en title %q", got)
	}
	if webtest.TestCount(doc, "new-proposal") != 0 {
		t.Error("a reviewer is offered a new proposal")
	}
	e.Page(e.Client("reviewer1"), "/desk/proposals/new", http.StatusForbidden)
}
