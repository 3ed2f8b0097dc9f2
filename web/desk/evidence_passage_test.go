package desk_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/desk"
	"github.com/crossrank/crossrank/web/webtest"
)

// passageShelf is the in-memory archive (webtest.Shelf) read by the capture
// package's own quote reader, as cmd/crossrank's adapter of the real
// archive reads it.
type passageShelf struct{ webtest.Shelf }

func (s passageShelf) Passage(ctx context.Context, sha256, excerpt string) (desk.Passage, error) {
	c, err := s.Get(ctx, sha256)
	if err != nil {
		return desk.Passage{}, err
	}
	p := capture.FindPassage(c.Body, c.ContentType, excerpt)
	return desk.Passage{URL: c.URL, Fetched: c.Fetched, Text: p.Text, Start: p.Start, End: p.End, Checked: p.Checked}, nil
}

// TestDeskEvidencePassage: a reviewer opens the captured copy's text with
// the quoted passage marked, as the quote check read it (across a tag, in
// the page's own width). The page is sandboxed like the copy, escapes the
// page's text, is for signed-in users only, and says when the quote is
// not there.
func TestDeskEvidencePassage(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	copies := passageShelf{webtest.Shelf{}}
	srv, err := web.New(web.Config{Commands: e.Cmd, Read: e.Read, SessionKeys: [][]byte{bytes.Repeat([]byte("k"), 32)},
		Captures: copies, Passages: copies})
	if err != nil {
		t.Fatal(err)
	}
	e.Srv = srv
	page := `<html><head><script>alert(1)</script></head><body><p>价格<b>以实时</b>库存为准，型号 ＲＴＸ ４０９０。</p>` +
		`<p>&lt;script&gt;alert(2)&lt;/script&gt;</p></body></html>`
	sha := copies.Put(page, "text/html; charset=utf-8", "https://example.org/stock", webtest.Fetched)
	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	before, err := e.Cmd.Proposal(e.Ctx, webtest.DemoDraft)
	if err != nil {
		t.Fatal(err)
	}
	for i, excerpt := range []string{"以实时库存为准，型号 RTX 4090", "按小时计费"} {
		if _, err := e.Cmd.AddEvidence(e.Ctx, editor, domain.AddEvidence{CommandID: "passage-ev-" + excerpt, Proposal: webtest.DemoDraft,
			Claim: events.Text{En: "Stock"}, SourceURL: "https://example.org/stock", Excerpt: excerpt, ObservedOn: "2026-03-01"}); err != nil {
			t.Fatal(err)
		}
		e.recordCapture(domain.RecordCapture{Proposal: webtest.DemoDraft, Evidence: nextEvidence(before.EvidenceSeq + i + 1),
			FinalURL: "https://example.org/stock", Status: 200, ContentType: "text/html; charset=utf-8", Size: int64(len(page)),
			SHA256: sha, QuoteFound: i == 0, QuoteChecked: true})
	}
	found, missed := nextEvidence(before.EvidenceSeq+1), nextEvidence(before.EvidenceSeq+2)

	c := e.Client("reviewer1")
	doc := e.Page(c, "/desk/proposals/"+webtest.DemoDraft, http.StatusOK)
	href := doc.Find(`#evidence-`+found+` [data-testid="passage-link"]`).AttrOr("href", "")
	if want := "/desk/proposals/" + webtest.DemoDraft + "/evidence/" + found + "/passage"; href != want {
		t.Fatalf("passage link %q, want %q", href, want)
	}

	for lang, banner := range map[string]string{"en": "Text of the archived copy of https://example.org/stock", "zh-CN": "这是 https://example.org/stock 的存档副本文本"} {
		c.Header.Set("Accept-Language", lang)
		res, body := c.Do(http.MethodGet, href, nil, nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %.300s", lang, res.StatusCode, body)
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "sandbox;") || strings.Contains(csp, "script-src") {
			t.Errorf("CSP %q: want the copy's sandbox", csp)
		}
		doc := e.Page(c, href, http.StatusOK)
		if got := doc.Find(`[data-testid="passage-mark"]`).Text(); got != "以实时库存为准，型号 ＲＴＸ ４０９０" {
			t.Errorf("%s: marked %q", lang, got)
		}
		if got := doc.Find(`[data-testid="capture-banner"]`).Text(); !strings.Contains(got, banner) {
			t.Errorf("%s: banner %q", lang, got)
		}
		if strings.Contains(body, "<script") || !strings.Contains(body, "&lt;script&gt;alert(2)") || strings.Contains(body, "alert(1)") {
			t.Errorf("%s: the page's script or markup leaked: %s", lang, body)
		}
	}
	c.Header.Set("Accept-Language", "en")

	doc = e.Page(c, "/desk/proposals/"+webtest.DemoDraft+"/evidence/"+missed+"/passage", http.StatusOK)
	if st := doc.Find(`[data-testid="passage-status"]`); st.AttrOr("data-status", "") != "not-found" || st.Text() != "quote not found" ||
		doc.Find(`[data-testid="passage-mark"]`).Length() != 0 || !strings.Contains(doc.Find(`[data-testid="passage-text"]`).Text(), "库存为准") {
		t.Errorf("missing quote: status %q, %d marks", st.Text(), doc.Find(`[data-testid="passage-mark"]`).Length())
	}
	for _, target := range []string{
		"/desk/proposals/" + webtest.DemoDraft + "/evidence/e999/passage",                          // no such item
		"/desk/proposals/" + webtest.DemoDraft + "/evidence/" + found + "/passage?version=changed", // no re-check found it changed
		"/desk/proposals/nope/evidence/e1/passage",
	} {
		if res, _ := c.Do(http.MethodGet, target, nil, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", target, res.StatusCode)
		}
	}
	if res, body := e.Client("").Do(http.MethodGet, href, nil, nil); res.StatusCode == http.StatusOK || strings.Contains(body, "库存") {
		t.Errorf("signed out: %d %.200s", res.StatusCode, body)
	}
}
