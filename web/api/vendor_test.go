package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
)

const (
	aliyunReplies = "/api/v1/rankings/" + demo.RankingSlug + "/entries/aliyun/replies"
	ppioReplies   = "/api/v1/rankings/" + demo.RankingSlug + "/entries/ppio/replies"
	aliyunPage    = "/r/" + demo.RankingSlug + "/e/aliyun"
)

// TestVendorStatements: a vendor writes a statement about its own entry;
// it shows on the public entry page as the vendor's own words and in the
// entry's JSON, never in an edition; an editor hides it with a public
// reason; the contact timeline records each step. Bad input changes
// nothing.
func TestVendorStatements(t *testing.T) {
	e, vendor := newVendorEnv(t)
	editor := e.Bearer("editor")
	before, _ := e.Get("/api/v1/rankings/" + demo.RankingSlug + "/editions/1")

	for _, tc := range []struct {
		name   string
		target string
		body   any
		status int
		field  string
	}{
		{"another entry", ppioReplies, map[string]string{"text_en": "PPIO is slow."}, http.StatusForbidden, ""},
		{"empty", aliyunReplies, map[string]string{"text_en": " ", "text_zh": ""}, http.StatusUnprocessableEntity, "text_en"},
		{"unknown criterion", aliyunReplies, map[string]string{"criterion": "nope", "text_en": "x"}, http.StatusUnprocessableEntity, "criterion"},
		{"oversized", aliyunReplies, []byte(`{"text_en":"` + strings.Repeat("x", 40<<10) + `"}`), http.StatusRequestEntityTooLarge, ""},
		{"duplicate keys", aliyunReplies, []byte(`{"text_en":"a","text_en":"b"}`), http.StatusBadRequest, ""},
		{"invalid UTF-8", aliyunReplies, []byte("{\"text_en\":\"\xff\"}"), http.StatusBadRequest, ""},
	} {
		res, body := e.Post(tc.target, "10.0.0.2", tc.body, "Authorization", vendor)
		if res.StatusCode != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, res.StatusCode, body, tc.status)
			continue
		}
		if tc.field != "" && !strings.Contains(body, `"`+tc.field+`"`) {
			t.Errorf("%s: the problem does not name %s: %s", tc.name, tc.field, body)
		}
	}
	if res, body := e.Post(aliyunReplies, "10.0.0.2", map[string]string{"text_en": "x"}, "Authorization", editor); res.StatusCode != http.StatusForbidden {
		t.Errorf("an editor writes a statement: %d %s", res.StatusCode, body)
	}

	res, body := e.Post(aliyunReplies, "10.0.0.2", map[string]string{"criterion": "gpu-coverage", "text_en": "Our A100 price fell in November.",
		"text_zh": "十一月起 A100 已降价。"}, "Authorization", vendor)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("statement: %d %s", res.StatusCode, body)
	}
	var written struct{ ID string }
	if err := json.Unmarshal([]byte(body), &written); err != nil || written.ID == "" {
		t.Fatalf("statement answer: %s", body)
	}

	doc := e.Page(aliyunPage)
	reply := doc.Find(`[data-testid="reply"]`)
	if reply.Length() != 1 || !strings.Contains(reply.Find(`[data-testid="reply-en"]`).Text(), "A100 price fell") ||
		!strings.Contains(reply.Find(`[data-testid="reply-label"]`).Text(), "Aliyun (vendor)") {
		t.Fatalf("entry page statement: %q", reply.Text())
	}
	_, body = e.Get("/api/v1/rankings/" + demo.RankingSlug + "/entries/aliyun")
	var entry struct{ Replies []projections.Reply }
	if err := json.Unmarshal([]byte(body), &entry); err != nil || len(entry.Replies) != 1 || entry.Replies[0].TextZh != "十一月起 A100 已降价。" {
		t.Fatalf("entry JSON replies: %s", body)
	}
	if after, _ := e.Get("/api/v1/rankings/" + demo.RankingSlug + "/editions/1"); after.Header.Get("ETag") != before.Header.Get("ETag") {
		t.Error("a statement changed the edition's answer")
	}

	hide := "/api/v1/replies/" + written.ID + "/hide"
	if res, _ := e.Post(hide, "10.0.0.2", map[string]string{"reason": "x"}, "Authorization", vendor); res.StatusCode != http.StatusForbidden {
		t.Errorf("the vendor hides: %d", res.StatusCode)
	}
	if res, body := e.Post(hide, "10.0.0.2", map[string]string{"reason": ""}, "Authorization", editor); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("hide without a reason: %d %s", res.StatusCode, body)
	}
	if res, body := e.Post(hide, "10.0.0.2", map[string]string{"reason": "It names a private person."}, "Authorization", editor); res.StatusCode != http.StatusOK {
		t.Fatalf("hide: %d %s", res.StatusCode, body)
	}
	doc = e.Page(aliyunPage)
	if got := doc.Find(`[data-testid="reply-hidden"]`).Text(); !strings.Contains(got, "Hidden by the editors: It names a private person.") ||
		strings.Contains(doc.Text(), "A100 price fell") {
		t.Errorf("hidden statement on the page: %q", got)
	}

	_, body = e.Get("/r/" + demo.RankingSlug + "/e/aliyun/contact.json")
	var contact struct {
		Events []projections.ContactEvent
		Total  int
	}
	if err := json.Unmarshal([]byte(body), &contact); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, c := range contact.Events {
		kinds = append(kinds, c.Kind)
		if c.Vendor != "Aliyun (vendor)" {
			t.Errorf("timeline names the vendor %q", c.Vendor)
		}
	}
	if got := strings.Join(kinds, ","); got != "vendor_invited,reply_written,reply_hidden" {
		t.Errorf("timeline %s", got)
	}
	doc = e.Page("/r/" + demo.RankingSlug + "/e/aliyun/contact")
	if doc.Find(`[data-testid="contact-row"]`).Length() != 3 || !strings.Contains(doc.Text(), "It names a private person.") {
		t.Errorf("timeline page: %s", doc.Find(`[data-testid="contact"]`).Text())
	}
	if res, _ := e.Get("/r/" + demo.RankingSlug + "/e/aliyun/contact?page=2"); res.StatusCode != http.StatusNotFound {
		t.Errorf("a page past the last: %d", res.StatusCode)
	}
	zh := e.Page("/r/"+demo.RankingSlug+"/e/aliyun/contact", "Accept-Language", "zh-CN")
	if !strings.Contains(zh.Text(), "与厂商的往来") {
		t.Error("the timeline in Chinese")
	}
}

// TestVendorFence: a vendor opens proposals on its own entry only, its
// evidence is tier vendor, it never votes, and every other door — desk
// queues, search, the audit trail, other entries' proposals, the proposal
// list of another entry — answers 403. Its inbox hears of editions that
// changed its entry.
func TestVendorFence(t *testing.T) {
	e, vendor := newVendorEnv(t)
	res, body := e.Post("/api/v1/proposals", "10.0.0.2", map[string]string{"ranking": demo.RankingSlug, "entry": "ppio", "title": "x"},
		"Authorization", vendor)
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("open on another entry: %d %s", res.StatusCode, body)
	}
	res, body = e.Post("/api/v1/proposals", "10.0.0.2", map[string]string{"ranking": demo.RankingSlug, "entry": "aliyun",
		"title": "Our November prices"}, "Authorization", vendor)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("open on its entry: %d %s", res.StatusCode, body)
	}
	var opened struct{ ID string }
	_ = json.Unmarshal([]byte(body), &opened)
	ev := map[string]any{"claim": "price list", "source_url": "https://www.aliyun.com/price", "excerpt": "A100 ¥20/h",
		"observed_on": "2026-11-30"}
	ev["tier"] = "own"
	if res, body := e.Post("/api/v1/proposals/"+opened.ID+"/evidence", "10.0.0.2", ev, "Authorization", vendor); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("vendor evidence as tier own: %d %s", res.StatusCode, body)
	}
	delete(ev, "tier")
	if res, body := e.Post("/api/v1/proposals/"+opened.ID+"/evidence", "10.0.0.2", ev, "Authorization", vendor); res.StatusCode != http.StatusCreated && res.StatusCode != http.StatusOK {
		t.Fatalf("vendor evidence: %d %s", res.StatusCode, body)
	}
	p, err := e.Cmd.Proposal(e.Ctx, opened.ID)
	if err != nil || len(p.Evidence) != 1 || p.Evidence[0].Tier != string(domain.TierVendor) {
		t.Fatalf("vendor evidence stored as %+v, %v", p.Evidence, err)
	}
	if res, _ := e.Get("/api/v1/proposals/"+opened.ID, "Authorization", vendor); res.StatusCode != http.StatusOK {
		t.Errorf("its own proposal: %d", res.StatusCode)
	}

	other := e.CrossValidate("ppio", "gpu-coverage", 4, domain.AddEvidence{Claim: events.Text{En: "c"}, SourceURL: "https://ppio.example/", Excerpt: "x",
		ObservedOn: "2026-11-01"})
	for _, target := range []string{
		"/api/v1/proposals/" + other, "/api/v1/proposals?ranking=" + demo.RankingSlug + "&entry=ppio",
		"/api/v1/proposals", "/api/v1/search?q=ppio", "/api/v1/audit", "/api/v1/reports",
		"/desk/proposals/" + other, "/desk/review", "/desk/search?q=ppio", "/desk/audit", "/desk/publish",
		"/desk/entries/" + demo.RankingSlug + "/ppio", "/desk/entries/" + demo.RankingSlug + "/ppio/replies",
	} {
		if res, body := e.Get(target, "Authorization", vendor); res.StatusCode != http.StatusForbidden {
			t.Errorf("GET %s: %d %.200s, want 403", target, res.StatusCode, body)
		}
	}
	if res, _ := e.Get("/api/v1/proposals?ranking="+demo.RankingSlug+"&entry=aliyun", "Authorization", vendor); res.StatusCode != http.StatusOK {
		t.Errorf("its own entry's proposals: %d", res.StatusCode)
	}
	if res, _ := e.Post("/api/v1/proposals/"+other+"/votes", "10.0.0.2", map[string]any{"revision": 1, "verdict": "approve"},
		"Authorization", vendor); res.StatusCode != http.StatusForbidden {
		t.Errorf("vendor votes: %d", res.StatusCode)
	}
	if res, _ := e.Post("/desk/proposals/"+other+"/comments", "10.0.0.2", url.Values{"text": {"hi"}}, "Authorization", vendor); res.StatusCode != http.StatusForbidden {
		t.Errorf("vendor comments on another entry's proposal: %d", res.StatusCode)
	}

	// An edition changing aliyun reaches the vendor's inbox; one
	// changing ppio does not.
	e.Publish(other)
	mine := e.CrossValidate("aliyun", "gpu-coverage", 4, domain.AddEvidence{Claim: events.Text{En: "c"}, SourceURL: "https://aliyun.example/", Excerpt: "x",
		ObservedOn: "2026-11-01"})
	n := e.Publish(mine)
	_, body = e.Get("/api/v1/inbox", "Authorization", vendor)
	if strings.Count(body, `"vendor_edition"`) != 1 || !strings.Contains(body, `"aliyun"`) {
		t.Errorf("vendor inbox after editions up to %d: %s", n, body)
	}
}
