package desk_test

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestDeskEvidenceCapture: an evidence item citing a web page shows
// "capturing…" until the worker records a result, then the archived copy
// and the quote check, or why the capture failed; the quorum names the
// item whose quote was not found. Items without a URL show nothing new.
func TestDeskEvidenceCapture(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	before, err := e.Cmd.Proposal(e.Ctx, webtest.DemoDraft)
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range []string{"https://example.org/found", "https://example.org/missed", "https://example.org/slow"} {
		if _, err := e.Cmd.AddEvidence(e.Ctx, editor, domain.AddEvidence{CommandID: "capture-ev-" + u, Proposal: webtest.DemoDraft,
			Claim: events.Text{En: "Claim " + string(rune('A'+i))}, SourceURL: u, Excerpt: "RTX 4090", ObservedOn: "2026-03-01"}); err != nil {
			t.Fatal(err)
		}
	}
	e.CaughtUp()
	after, err := e.Cmd.Proposal(e.Ctx, webtest.DemoDraft)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, ev := range after.Evidence[len(before.Evidence):] {
		ids = append(ids, ev.EvidenceID)
	}
	c := e.Client("editor")
	target := "/desk/proposals/" + webtest.DemoDraft
	doc := e.Page(c, target, 200)
	if got := doc.Find(`[data-testid="evidence-capture"]`).Length(); got != 3 {
		t.Fatalf("%d capture states shown, want 3 (only the items with a URL)", got)
	}
	for _, id := range ids {
		if got := doc.Find(`#evidence-` + id + ` [data-testid="capture-pending"]`).Text(); got != "capturing…" {
			t.Errorf("%s before its capture: %q, want capturing…", id, got)
		}
	}
	if doc.Find(`[data-testid="quorum-quote"]`).Length() != 0 {
		t.Error("quorum mentions a missing quote before any capture")
	}

	sha := strings.Repeat("a", 64)
	e.recordCapture(domain.RecordCapture{Proposal: webtest.DemoDraft, Evidence: ids[0], FinalURL: "https://example.org/found",
		Status: 200, ContentType: "text/html", Size: 15, SHA256: sha, QuoteFound: true, QuoteChecked: true})
	e.recordCapture(domain.RecordCapture{Proposal: webtest.DemoDraft, Evidence: ids[1], FinalURL: "https://example.org/missed",
		Status: 200, ContentType: "text/html", Size: 15, SHA256: strings.Repeat("b", 64), QuoteChecked: true})
	e.recordCapture(domain.RecordCapture{Proposal: webtest.DemoDraft, Evidence: ids[2], Failure: domain.CaptureTimeout})

	type want struct{ captured, found, missed, failed, quorum string }
	for lang, w := range map[string]want{
		"en":    {"captured 2 Mar 2026", "quote found in the capture", "quote not found", "capture failed: the server took too long", "the quote of evidence " + ids[1] + " was not found"},
		"zh-CN": {"已于 2026年3月2日 存档", "存档中找到引文", "存档中未找到引文", "存档失败：服务器响应超时", "证据 " + ids[1] + " 的引文未在存档中找到"},
	} {
		c.Header.Set("Accept-Language", lang)
		doc := e.Page(c, target, 200)
		found := doc.Find("#evidence-" + ids[0])
		link := found.Find(`[data-testid="capture-link"]`)
		if link.AttrOr("href", "") != "/captures/"+sha || link.Text() != w.captured {
			t.Errorf("%s: capture link %q %q, want /captures/%s %q", lang, link.AttrOr("href", ""), link.Text(), sha, w.captured)
		}
		checks := []struct {
			sel  *goquery.Selection
			want string
		}{
			{found.Find(`[data-testid="quote-found"]`), w.found},
			{doc.Find("#evidence-" + ids[1] + ` [data-testid="quote-not-found"]`), w.missed},
			{doc.Find("#evidence-" + ids[2] + ` [data-testid="capture-failed"]`), w.failed},
		}
		for _, ch := range checks {
			if got := ch.sel.Text(); got != ch.want {
				t.Errorf("%s: %q, want %q", lang, got, ch.want)
			}
		}
		if n := doc.Find(`[data-testid="capture-pending"]`).Length(); n != 0 {
			t.Errorf("%s: %d items still capturing", lang, n)
		}
		if got := doc.Find(`[data-testid="quorum-quote"]`).Text(); !strings.Contains(got, w.quorum) {
			t.Errorf("%s: quorum note %q, want it to contain %q", lang, got, w.quorum)
		}
	}
}

// TestDeskEvidenceCaptureGaveUp: a failure the worker retried says how many
// attempts it made before giving up, in both languages; one it did not
// retry (one attempt) reads as any failure does.
func TestDeskEvidenceCaptureGaveUp(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	before, err := e.Cmd.Proposal(e.Ctx, webtest.DemoDraft)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"https://example.org/slow", "https://example.org/broken"} {
		if _, err := e.Cmd.AddEvidence(e.Ctx, editor, domain.AddEvidence{CommandID: "gave-up-ev-" + u, Proposal: webtest.DemoDraft,
			Claim: events.Text{En: "Claim"}, SourceURL: u, Excerpt: "RTX 4090", ObservedOn: "2026-03-01"}); err != nil {
			t.Fatal(err)
		}
	}
	e.CaughtUp()
	after, err := e.Cmd.Proposal(e.Ctx, webtest.DemoDraft)
	if err != nil {
		t.Fatal(err)
	}
	slow, broken := after.Evidence[len(before.Evidence)].EvidenceID, after.Evidence[len(before.Evidence)+1].EvidenceID
	e.recordCapture(domain.RecordCapture{Proposal: webtest.DemoDraft, Evidence: slow, Failure: domain.CaptureTimeout, Attempts: 12})
	e.recordCapture(domain.RecordCapture{Proposal: webtest.DemoDraft, Evidence: broken, Failure: domain.CaptureStatus, Attempts: 1})

	c := e.Client("editor")
	for lang, want := range map[string][2]string{
		"en":    {"gave up after 12 attempts: the server took too long", "capture failed: the server answered with an error"},
		"zh-CN": {"尝试 12 次后放弃：服务器响应超时", "存档失败：服务器返回错误"},
	} {
		c.Header.Set("Accept-Language", lang)
		doc := e.Page(c, "/desk/proposals/"+webtest.DemoDraft, 200)
		for i, id := range []string{slow, broken} {
			if got := doc.Find("#evidence-" + id + ` [data-testid="capture-failed"]`).Text(); got != want[i] {
				t.Errorf("%s: %s shows %q, want %q", lang, id, got, want[i])
			}
		}
	}
}

// TestDashboardSourcesToReverify: a published score's source that a
// re-check found gone is listed under "Sources to re-verify", with the
// entry and what happened, in both languages; with none the queue is not
// shown.
func TestDashboardSourcesToReverify(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	c := e.Client("editor")
	if _, _, shown := webtest.Queue(e.Page(c, "/desk", 200), "reverify"); shown {
		t.Fatal("the queue is shown with nothing to re-verify")
	}
	site := &webtest.SiteEnv{T: t, Ctx: e.Ctx, Store: e.Store, Cmd: e.Cmd, Read: e.Read, Srv: e.Srv}
	id := site.CrossValidate("ppio", "gpu-coverage", 4, domain.AddEvidence{Claim: events.Text{En: "PPIO lists GPUs"},
		SourceURL: "https://example.org/ppio", Excerpt: "RTX 4090", ObservedOn: "2026-03-01"})
	site.Publish(id)
	e.recordCapture(domain.RecordCapture{Proposal: id, Evidence: "e1", FinalURL: "https://example.org/ppio",
		Status: 200, ContentType: "text/html", Size: 15, SHA256: strings.Repeat("a", 64), QuoteFound: true, QuoteChecked: true})
	if _, _, shown := webtest.Queue(e.Page(c, "/desk", 200), "reverify"); shown {
		t.Fatal("the queue is shown for a source that never drifted")
	}
	res, err := e.Cmd.RecordRecheck(e.Ctx, domain.Worker(), domain.RecordRecheck{CommandID: id + "-recheck", Proposal: id,
		Evidence: "e1", Tick: "tick-1", At: captureFetched.AddDate(0, 0, 7), Dead: domain.DeadNotFound, Status: 404})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Read.WaitFor(e.Ctx, res.Sequence); err != nil {
		t.Fatal(err)
	}
	for lang, note := range map[string]string{
		"en":    "the source is gone (re-checked 9 Mar 2026): the page is not found (404)",
		"zh-CN": "来源已失效（2026年3月9日 复查）：页面不存在（404）",
	} {
		c.Header.Set("Accept-Language", lang)
		doc := e.Page(c, "/desk", 200)
		count, links, shown := webtest.Queue(doc, "reverify")
		if !shown || count != 1 || len(links) != 1 || links[0] != "/desk/proposals/"+id+"#evidence-e1" {
			t.Fatalf("%s: reverify queue shown %v count %d links %v", lang, shown, count, links)
		}
		item := doc.Find(`[data-testid="queue-reverify"] [data-testid="queue-item"]`)
		if got := item.Find(`[data-testid="queue-item-note"]`).Text(); got != note {
			t.Errorf("%s: note %q, want %q", lang, got, note)
		}
		if got := item.Find(`[data-testid="queue-item-detail"]`).Text(); !strings.Contains(got, "PPIO lists GPUs") {
			t.Errorf("%s: detail %q lacks the claim", lang, got)
		}
		if got := item.Find(`[data-testid="queue-item-extra"]`).AttrOr("href", ""); got != "/desk/entries/"+demo.RankingSlug+"/ppio" {
			t.Errorf("%s: entry link %q", lang, got)
		}
	}
}
