package desk_test

import (
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/webtest"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// TestBrowserMethodology: an editor defines a second ranking from the desk,
// two reviewers approve it and it is published as edition 1; then a
// methodology change to the demo ranking, proposed from the desk, reviewed
// and published, moves entries on a reader's open page over its event
// stream.
func TestBrowserMethodology(t *testing.T) {
	browsertest.SkipShort(t)
	e := newDemoEnv(t)
	ts := httptest.NewServer(e.Srv.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(e.Srv.CloseStreams)
	field := func(name string) string { return `[name="` + name + `"]` }

	// The editor proposes a new ranking; the weights' total follows the typing.
	editor := e.signIn(ts.URL, "editor")
	editor.do(
		chromedp.Click(chromedp.CSS(`[data-testid="new-ranking"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="methodology-form"]`)),
		// The form starts with one blank row a list; "add a row" posts
		// it back with one more.
		chromedp.Click(chromedp.CSS(`[data-testid="add-criteria"]`)),
		chromedp.WaitVisible(chromedp.CSS(field("criteria[1].slug"))),
	)
	for name, value := range map[string]string{
		"slug": "vector-db", "rationale_en": "Buyers asked for it", "title.zh": "向量数据库", "title.en": "Vector databases",
		"categories[0].slug": "managed", "categories[0].name.zh": "托管", "categories[0].name.en": "Managed",
		"criteria[0].slug": "speed", "criteria[0].name.zh": "速度", "criteria[0].name.en": "Speed",
		"criteria[1].slug": "price", "criteria[1].name.zh": "价格", "criteria[1].name.en": "Price",
	} {
		editor.do(chromedp.SetValue(chromedp.CSS(field(name)), value))
	}
	editor.do(
		chromedp.SendKeys(chromedp.CSS(field("criteria[0].weight")), "60"),
		chromedp.SendKeys(chromedp.CSS(field("criteria[1].weight")), "40"),
	)
	if got := editor.text("weight-total"); got != "100" {
		t.Errorf("the weights' total shows %q while typing, want 100", got)
	}
	browsertest.CheckAccessibility(t, editor.ctx, "the new-ranking form")
	clickAndLand(editor, `[data-testid="methodology-submit"]`, `[data-testid="methodology-change-defined"]`)
	defined := proposalIDAt(t, editor)
	e.reviewAndPublish(ts.URL, editor, "vector-db", defined)
	if ed, err := e.Cmd.Edition(e.Ctx, "vector-db"); err != nil || ed.Number != 1 {
		t.Fatalf("the new ranking's edition: %v, %v; want 1", ed, err)
	}

	// A reader has the demo ranking open.
	reader := browsertest.NewBrowser(t, 412, 915)
	browsertest.Browse(t, reader, chromedp.Navigate(ts.URL+"/r/"+webtest.DemoRanking+"?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="ranking-row"]`)))
	for deadline := time.Now().Add(10 * time.Second); e.streams() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the reader's page never opened its event stream")
		}
	}

	// The editor proposes graphics take the weight of delivery and GPUs.
	editor.open("/desk/rankings/"+webtest.DemoRanking+"/methodology", `[data-testid="methodology-form"]`)
	editor.do(
		chromedp.SetValue(chromedp.CSS(field("criteria[0].weight")), "0"),
		chromedp.SetValue(chromedp.CSS(field("criteria[1].weight")), "0"),
		chromedp.SetValue(chromedp.CSS(field("criteria[5].weight")), "40"),
		chromedp.SetValue(chromedp.CSS(field("rationale_en")), "Graphics matters most to these buyers"),
	)
	clickAndLand(editor, `[data-testid="methodology-submit"]`, `[data-testid="methodology-change-weight"]`)
	change := proposalIDAt(t, editor)
	mover := browsertest.Value(t, editor.ctx, chromedp.AttributeValue(chromedp.CSS(`[data-testid="moves-overall"] li`), "data-testid"))
	moveText := editor.text(mover.Value)
	slug := strings.TrimPrefix(mover.Value, "move-")
	to := moveText[strings.LastIndex(moveText, "#")+1:]
	t.Logf("the preview moves %s: %q", slug, moveText)
	e.reviewAndPublish(ts.URL, editor, webtest.DemoRanking, change)

	browsertest.Browse(t, reader, chromedp.WaitVisible(chromedp.CSS(
		`[data-testid="ranking-row"][data-entry="`+slug+`"][data-rank="`+to+`"]`)))

	// The published proposal still says what it changed.
	editor.open("/desk/proposals/"+change, `[data-testid="proposal"][data-status="published"] [data-testid="methodology-change-weight"]`)
}

// proposalIDAt is the id of the proposal page the browser shows.
func proposalIDAt(t *testing.T, b *userBrowser) string {
	t.Helper()
	loc := browsertest.Value(t, b.ctx, chromedp.Location())
	id := loc[strings.LastIndex(loc, "/")+1:]
	if !events.ValidID(id) {
		t.Fatalf("the browser is at %q, not a proposal", loc)
	}
	return id
}

// reviewAndPublish submits the editor's methodology proposal, has both
// reviewers approve it in their browsers, and publishes it through the
// JSON API as the publisher.
func (e *demoEnv) reviewAndPublish(base string, editor *userBrowser, ranking, id string) {
	e.T.Helper()
	page := "/desk/proposals/" + id
	editor.open(page, `[data-testid="submit"]`)
	clickAndLand(editor, `[data-testid="submit"]`, `[data-testid="proposal"][data-status="in_review"]`)
	for _, user := range []string{"reviewer1", "reviewer2"} {
		b := e.signIn(base, user)
		b.open(page, `[data-testid="approve-form"]`)
		clickAndLand(b, `[data-testid="approve"]`, `[data-testid="vote-`+user+`"][data-verdict="approve"]`)
	}
	e.waitStatus(id, domain.StatusCrossValidated)
	pv, _, err := e.Cmd.PreviewEdition(e.Ctx, ranking, []string{id})
	if err != nil {
		e.T.Fatal(err)
	}
	res, body := e.Client("publisher").PostJSON("/api/v1/rankings/"+ranking+"/editions",
		map[string]any{"proposals": []string{id}, "preview_hash": pv.Hash}, nil)
	if res.StatusCode != 201 {
		e.T.Fatalf("publish %s: status %d, %s", ranking, res.StatusCode, body)
	}
	e.waitStatus(id, domain.StatusPublished)
}

// clickAndLand clicks a form's submit button and waits until the page it
// lands on has an element matching ready: asking during the navigation
// fails, so it asks again.
func clickAndLand(b *userBrowser, button, ready string) {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS(button)))
	check := `document.readyState === "complete" && document.querySelector(` + strconv.Quote(ready) + `) !== null`
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](check)); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			msg, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`location.href + " " + document.body.innerText.slice(0, 300)`))
			b.t.Fatalf("after clicking %s, no %s within 30 s: %s", button, ready, msg)
		}
	}
}
