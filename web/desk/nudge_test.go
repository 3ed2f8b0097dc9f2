package desk_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/scheduler"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest"
)

// startNudger runs the review due dates' worker over e's store until the
// test ends, as `crossrank serve` does.
func (e *demoEnv) startNudger() {
	e.T.Helper()
	nc, err := e.JS.Server.Connect("nudger")
	if err != nil {
		e.T.Fatal(err)
	}
	n, err := scheduler.NewNudger(nc, scheduler.NudgeConfig{Commands: e.Cmd})
	if err != nil {
		e.T.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = n.Run(ctx) })
	e.T.Cleanup(func() { stop(); wg.Wait(); nc.Close() })
}

// TestAPIReviewDueRefused: a due date in the past, beyond a year or in no
// known form is refused with 422 naming due, and nothing is appended.
func TestAPIReviewDueRefused(t *testing.T) {
	e := newDemoEnv(t)
	ed := e.Client("editor")
	for _, due := range []string{time.Now().Add(-time.Minute).Format(time.RFC3339), "2020-01-01",
		time.Now().AddDate(2, 0, 0).Format(time.RFC3339), "next tuesday", "2026-13-40"} {
		before := e.LastSeq()
		res, body := ed.PostJSON("/api/v1/proposals/"+webtest.DemoInReview+"/reviewers",
			map[string]any{"reviewers": []string{"reviewer2"}, "due": due}, nil)
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("due %q: status %d, want 422; %s", due, res.StatusCode, body)
		}
		if p := webtest.DecodeProblem(t, res, body); len(p.Errors) != 1 || p.Errors[0].Field != "due" {
			t.Errorf("due %q: errors %+v, want one naming due", due, p.Errors)
		}
		if after := e.LastSeq(); after != before {
			t.Errorf("due %q refused but appended %d events", due, after-before)
		}
	}
	// A date is due at the end of that day in UTC; the proposal says so.
	day := time.Now().UTC().AddDate(0, 0, 3).Format(time.DateOnly)
	if res, body := ed.PostJSON("/api/v1/proposals/"+webtest.DemoInReview+"/reviewers",
		map[string]any{"reviewers": []string{"reviewer2"}, "due": day}, nil); res.StatusCode != http.StatusOK {
		t.Fatalf("due %s: %d %s", day, res.StatusCode, body)
	}
	e.CaughtUp()
	res, body := ed.Do(http.MethodGet, "/api/v1/proposals/"+webtest.DemoInReview, nil, nil)
	var p api.Proposal
	if err := json.Unmarshal([]byte(body), &p); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET proposal: %d %v", res.StatusCode, err)
	}
	end, _ := time.Parse(time.DateOnly, day)
	if want := end.AddDate(0, 0, 1).Format(time.RFC3339); p.ReviewDue["reviewer2"] != want || len(p.OverdueReviewers) != 0 {
		t.Errorf("review_due %v overdue %v, want reviewer2 due %s", p.ReviewDue, p.OverdueReviewers, want)
	}
}

// TestDeskReviewDueNudgesAndShowsOverdue: the editor asks reviewer2 through
// the desk form for a review due in two seconds; at the due date the real
// worker nudges reviewer2 (an inbox item of kind review_overdue) and the
// editor's dashboard and the proposal page show the review as overdue.
func TestDeskReviewDueNudgesAndShowsOverdue(t *testing.T) {
	e := newDemoEnv(t)
	e.startNudger()
	ed := e.Client("editor")
	due := time.Now().UTC().Add(2 * time.Second).Truncate(time.Second)
	if !due.After(time.Now().Add(time.Second)) {
		due = due.Add(time.Second)
	}
	e.MustPost(ed, webtest.DemoInReview, "reviewers", url.Values{"reviewers": {"reviewer2"},
		"due_local": {due.Format("2006-01-02T15:04:05")}, "zone": {"UTC"}})
	page := e.Page(ed, "/desk/proposals/"+webtest.DemoInReview, http.StatusOK)
	if got := webtest.TestText(page, "requested"); !strings.Contains(got, "reviewer2 (due ") {
		t.Errorf("requested before the due date: %q", got)
	}
	deadline := time.Now().Add(20 * time.Second)
	var overdue string
	for {
		doc := e.Page(ed, "/desk", http.StatusOK)
		if overdue = webtest.TestText(doc, "queue-item-overdue"); overdue != "" || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(overdue, "reviewer2 (overdue since ") {
		t.Fatalf("the editor's dashboard shows no overdue review: %q", overdue)
	}
	if time.Now().Before(due) {
		t.Errorf("overdue before the due date %v", due)
	}
	page = e.Page(ed, "/desk/proposals/"+webtest.DemoInReview, http.StatusOK)
	if got := webtest.TestText(page, "requested"); !strings.Contains(got, "reviewer2 (overdue since ") {
		t.Errorf("requested after the due date: %q", got)
	}
	rev := e.Client("reviewer2")
	res, body := rev.Do(http.MethodGet, "/api/v1/inbox?kind=review_overdue", nil, nil)
	var in api.Inbox
	if err := json.Unmarshal([]byte(body), &in); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET inbox: %d %v %s", res.StatusCode, err, body)
	}
	if len(in.Items) != 1 || in.Items[0].Proposal != webtest.DemoInReview {
		t.Fatalf("reviewer2's overdue items: %+v, want one", in.Items)
	}
	doc := e.Page(rev, "/desk/inbox", http.StatusOK)
	title := webtest.TestText(e.Page(rev, "/desk/proposals/"+webtest.DemoInReview, http.StatusOK), "proposal-title")
	if title == "" || !strings.Contains(doc.Text(), "Your review of proposal "+title+" is overdue") { // by its title, not its id
		t.Errorf("the desk inbox does not word the nudge with the proposal's title %q", title)
	}
}
