package desk_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/desk"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestReverifyProposal: a published score's source changed and lost its
// quote. The "sources to re-verify" queue offers editors (not reviewers) a
// re-verification proposal; its form comes pre-filled with a title and a
// summary naming the score, the old claim and its URL; opening it goes
// through the ordinary open-proposal form, and the new draft's evidence
// and score forms start from the old item (claim, URL, tier, criterion).
// The reviewer reads the changed version with the quote looked for.
func TestReverifyProposal(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	copies := passageShelf{webtest.Shelf{}}
	srv, err := web.New(web.Config{Commands: e.Cmd, Read: e.Read, SessionKeys: [][]byte{bytes.Repeat([]byte("k"), 32)},
		Captures: copies, Passages: copies})
	if err != nil {
		t.Fatal(err)
	}
	e.Srv = srv
	site := &webtest.SiteEnv{T: t, Ctx: e.Ctx, Store: e.Store, Cmd: e.Cmd, Read: e.Read, Srv: e.Srv}
	old := copies.Put("<p>PPIO: RTX 4090 on demand</p>", "text/html", "https://example.org/ppio", webtest.Fetched)
	changed := copies.Put("<p>PPIO: H20 only</p>", "text/html", "https://example.org/ppio", webtest.Fetched.AddDate(0, 0, 7))
	id := site.CrossValidate("ppio", demo.CritGPUs, 4, domain.AddEvidence{Claim: events.Text{En: "PPIO lists GPUs"},
		SourceURL: "https://example.org/ppio", Excerpt: "RTX 4090", ObservedOn: "2026-03-01", Tier: domain.TierThirdParty})
	site.Publish(id)
	e.recordCapture(domain.RecordCapture{Proposal: id, Evidence: "e1", FinalURL: "https://example.org/ppio",
		Status: 200, ContentType: "text/html", Size: 30, SHA256: old, QuoteFound: true, QuoteChecked: true})
	res, err := e.Cmd.RecordRecheck(e.Ctx, domain.Worker(), domain.RecordRecheck{CommandID: id + "-recheck", Proposal: id,
		Evidence: "e1", Tick: "tick-1", At: webtest.Fetched.AddDate(0, 0, 7), Status: 200, FinalURL: "https://example.org/ppio",
		ContentType: "text/html", Size: 20, SHA256: changed, QuoteChecked: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Read.WaitFor(e.Ctx, res.Sequence); err != nil {
		t.Fatal(err)
	}

	reviewer := e.Client("reviewer1")
	if n := e.Page(reviewer, "/desk", http.StatusOK).Find(`[data-testid="queue-item-action"]`).Length(); n != 0 {
		t.Errorf("a reviewer is offered %d re-verification proposals", n)
	}
	c := e.Client("editor")
	action := e.Page(c, "/desk", http.StatusOK).Find(`[data-testid="queue-reverify"] [data-testid="queue-item-action"]`)
	href := action.AttrOr("href", "")
	if want := "/desk/proposals/new?entry=ppio&evidence=e1&ranking=" + demo.RankingSlug + "&reverify=" + id; href != want {
		t.Fatalf("action %q, want %q", href, want)
	}

	// The desk's entry page says what happened and offers the same.
	entry := e.Page(c, "/desk/entries/"+demo.RankingSlug+"/ppio", http.StatusOK)
	if got := entry.Find(`[data-testid="evidence-reverify"]`).AttrOr("href", ""); got != href ||
		!strings.Contains(webtest.TestText(entry, "evidence-drift"), "the quote is gone") {
		t.Errorf("entry page: re-verify link %q, drift %q", got, webtest.TestText(entry, "evidence-drift"))
	}
	if got := entry.Find(`[data-testid="evidence-changed-passage"]`).AttrOr("href", ""); got != desk.PassagePath(id, "e1", true) {
		t.Errorf("entry page: changed version link %q", got)
	}

	doc := e.Page(c, href, http.StatusOK)
	form := doc.Find(`[data-testid="open-existing-form"]`)
	title := form.Find(`input[name="title"]`).AttrOr("value", "")
	summary := form.Find(`textarea[name="summary"]`).Text()
	if title != "Re-verify: PPIO lists GPUs" {
		t.Errorf("title %q", title)
	}
	for _, want := range []string{"PPIO lists GPUs", "https://example.org/ppio", "GPU", "the quote is gone"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary %q lacks %q", summary, want)
		}
	}
	if got := form.Find(`select[name="entry"] option[selected]`).AttrOr("value", ""); got != "ppio" {
		t.Errorf("entry %q preselected", got)
	}
	values := url.Values{}
	form.Find(`input[type="hidden"], input[name="title"]`).Each(func(_ int, s *goquery.Selection) {
		values.Set(s.AttrOr("name", ""), s.AttrOr("value", ""))
	})
	values.Set("entry", "ppio")
	values.Set("summary", summary)
	status, loc, _ := e.Post(c, "/desk/proposals", values)
	draft, query, _ := strings.Cut(strings.TrimPrefix(loc, "/desk/proposals/"), "?")
	if status != http.StatusSeeOther || query != "evidence=e1&reverify="+id {
		t.Fatalf("open: %d Location %q", status, loc)
	}
	p, err := e.Cmd.Proposal(e.Ctx, draft)
	if err != nil || p.Title != title || p.Summary != summary || p.Entry != "ppio" {
		t.Fatalf("opened %+v, %v", p, err)
	}

	doc = e.Page(c, loc, http.StatusOK)
	ev := doc.Find(`[data-testid="evidence-form"]`)
	for field, want := range map[string]string{"claim_en": "PPIO lists GPUs", "source_url": "https://example.org/ppio"} {
		if got := ev.Find(`input[name="`+field+`"]`).AttrOr("value", ""); got != want {
			t.Errorf("evidence %s %q, want %q", field, got, want)
		}
	}
	if got := ev.Find(`select[name="tier"] option[selected]`).AttrOr("value", "?"); got != "third_party" {
		t.Errorf("tier %q", got)
	}
	if got := ev.Find(`input[name="excerpt"], textarea[name="excerpt"]`).Text(); got != "" {
		t.Errorf("excerpt pre-filled with %q: the editor must quote the source as it is now", got)
	}
	if got := doc.Find(`select[name="criterion"] option[selected]`).AttrOr("value", ""); got != demo.CritGPUs {
		t.Errorf("criterion %q preselected", got)
	}
	if !strings.Contains(webtest.TestText(doc, "reverify-note"), "e1") {
		t.Errorf("note %q", webtest.TestText(doc, "reverify-note"))
	}
	// Without the reference (or with one that names no drifted source) the
	// forms start empty.
	for _, target := range []string{"/desk/proposals/" + draft, "/desk/proposals/" + draft + "?reverify=" + id + "&evidence=e7"} {
		doc := e.Page(c, target, http.StatusOK)
		if got := doc.Find(`[data-testid="evidence-form"] input[name^="claim_"]`).AttrOr("value", "?"); got != "" || webtest.TestText(doc, "reverify-note") != "" {
			t.Errorf("%s: claim %q pre-filled", target, got)
		}
	}

	// The changed version, with the quote looked for in it.
	doc = e.Page(reviewer, desk.PassagePath(id, "e1", true), http.StatusOK)
	if st := doc.Find(`[data-testid="passage-status"]`); st.AttrOr("data-version", "") != "changed" || st.AttrOr("data-status", "") != "not-found" ||
		!strings.Contains(webtest.TestText(doc, "passage-text"), "H20 only") {
		t.Errorf("changed version: %q %q", st.AttrOr("data-version", ""), webtest.TestText(doc, "passage-text"))
	}
}
