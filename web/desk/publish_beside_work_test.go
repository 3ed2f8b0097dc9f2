package desk_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections/history"
	"github.com/crossrank/crossrank/web/desk"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// readyRanking writes a ranking of three cross-validated new-entry
// proposals and waits for the read models.
func readyRanking(t *testing.T, e *webtest.AdminEnv, seed int64) (string, []string) {
	t.Helper()
	slug, ids, err := history.LargeRanking(e.Ctx, e.Store, history.ReadyEdition{Entries: 3, Criteria: 2, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	return slug, ids
}

// publishForm is the publish page's form of slug, as pat sees it: the
// preview the publish carries back.
func publishForm(e *webtest.AdminEnv, c *webtest.Client, slug string) (form map[string][]string) {
	e.T.Helper()
	doc := e.Get(c, paths.Publish+"?ranking="+slug+"&all=1", http.StatusOK)
	return webtest.FormValues(webtest.ByTestID(doc, "publish-form-"+slug))
}

// TestPublishBesideBackgroundWork: between the preview and the publish,
// the capture worker records a chosen proposal's source, a reviewer
// comments on another and approves a third once more. None of it changes
// what the edition contains, and the publish goes through on its first
// try. The preview's hash pinned each proposal's last sequence: any of the
// three made it 409.
func TestPublishBesideBackgroundWork(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	slug, ids := readyRanking(t, e, 42)
	pat := e.Client("pat")
	form := publishForm(e, pat, slug)

	p0, err := e.Cmd.Proposal(e.Ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Cmd.RecordCapture(e.Ctx, domain.Worker(), domain.RecordCapture{CommandID: events.NewID(time.Now()),
		Proposal: ids[0], Evidence: p0.EvidenceIDs()[0], At: time.Now(), FinalURL: "https://example.com/e00001", Status: 200,
		ContentType: "text/html", Size: 42, SHA256: strings.Repeat("ab", 32), QuoteChecked: true, QuoteFound: true}); err != nil {
		t.Fatalf("capture: %v", err)
	}
	rev := domain.Actor{Name: "rev", Roles: []string{domain.RoleReviewer}}
	if _, err := e.Cmd.AddComment(e.Ctx, rev, domain.AddComment{CommandID: events.NewID(time.Now()), Proposal: ids[1],
		Body: "The source still says so."}); err != nil {
		t.Fatalf("comment: %v", err)
	}
	p2, err := e.Cmd.Proposal(e.Ctx, ids[2])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Cmd.CastVote(e.Ctx, rev, domain.CastVote{CommandID: events.NewID(time.Now()), Proposal: ids[2],
		Revision: p2.Revision, Verdict: events.Approve, VerifiedEvidence: p2.EvidenceIDs()}); err != nil {
		t.Fatalf("vote: %v", err)
	}
	e.CaughtUp()

	status, loc, page := e.Post(pat, paths.Publish, form)
	if status != http.StatusSeeOther {
		t.Fatalf("publish after a capture, a comment and a vote: status %d, %q; want 303",
			status, webtest.ByTestID(page, "form-error").Text())
	}
	if want := desk.EditionURL(slug, 1) + "?published=1"; loc != want {
		t.Errorf("publish answered Location %q, want %s", loc, want)
	}
	e.Get(pat, loc, http.StatusOK)
	ed, err := e.Cmd.Edition(e.Ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	if ed.Number != 1 || len(ed.Last.Proposals) != 3 {
		t.Errorf("edition %d of %d proposals, want edition 1 of 3", ed.Number, len(ed.Last.Proposals))
	}
}

// TestPublishNamesTheRevisedProposal: a chosen proposal revised between
// the preview and the publish refuses the publish (409), and the refusal
// names it — on the API, which chose it by id, and on the desk, whose form
// chose every ready proposal.
func TestPublishNamesTheRevisedProposal(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	slug, ids := readyRanking(t, e, 43)
	pat := e.Client("pat")
	form := publishForm(e, pat, slug)
	chosen := ids[:2]
	res, body := pat.PostJSON("/api/v1/rankings/"+slug+"/editions/preview", map[string]any{"proposals": chosen}, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("preview: status %d, %.300s", res.StatusCode, body)
	}
	var pv struct {
		PreviewHash string `json:"preview_hash"`
	}
	if err := json.Unmarshal([]byte(body), &pv); err != nil {
		t.Fatal(err)
	}

	ed := domain.Actor{Name: "ed", Roles: []string{domain.RoleEditor}}
	if _, err := e.Cmd.Revise(e.Ctx, ed, domain.Revise{CommandID: events.NewID(time.Now()), Proposal: ids[0],
		Note: "a newer source"}); err != nil {
		t.Fatalf("revise: %v", err)
	}
	e.CaughtUp()

	before := e.LastSeq()
	res, body = pat.PostJSON("/api/v1/rankings/"+slug+"/editions", map[string]any{"proposals": chosen, "preview_hash": pv.PreviewHash}, nil)
	var problem struct {
		Detail string `json:"detail"`
	}
	if err := json.Unmarshal([]byte(body), &problem); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusConflict || !strings.Contains(problem.Detail, ids[0]) || !strings.Contains(problem.Detail, "revised") {
		t.Errorf("API publish: status %d, detail %q; want 409 naming %s as revised", res.StatusCode, problem.Detail, ids[0])
	}

	pat.Header.Set("Accept-Language", "zh-CN")
	status, _, page := e.Post(pat, paths.Publish, form)
	pat.Header.Del("Accept-Language")
	if msg := webtest.ByTestID(page, "form-error").Text(); status != http.StatusConflict || !strings.Contains(msg, ids[0]) || !strings.Contains(msg, "预览之后") {
		t.Errorf("desk publish: status %d, %q; want 409 naming %s in Chinese", status, msg, ids[0])
	}
	if after := e.LastSeq(); after != before {
		t.Errorf("the refused publishes stored events: sequence %d → %d", before, after)
	}
}
