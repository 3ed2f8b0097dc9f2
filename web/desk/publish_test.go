package desk_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

func TestPublishRefusesEditorsAndReviewers(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	pv, _, err := e.Cmd.PreviewEdition(e.Ctx, demo.RankingSlug, []string{webtest.DemoReady})
	if err != nil {
		t.Fatal(err)
	}
	for _, user := range []string{"ed", "rev"} {
		c := e.Client(user)
		e.Get(c, paths.Publish, http.StatusForbidden)
		before := e.LastSeq()
		status, _, _ := e.Post(c, paths.Publish, url.Values{"cmd_id": {events.NewID(e.Cmd.Now())},
			"ranking": {demo.RankingSlug}, "proposals": {webtest.DemoReady}, "preview_hash": {pv.Hash}})
		if status != http.StatusForbidden {
			t.Errorf("%s publishing: status %d, want 403", user, status)
		}
		if after := e.LastSeq(); after != before {
			t.Errorf("%s publishing appended events: sequence %d → %d", user, before, after)
		}
	}
	// A publisher naming no real ranking is told so.
	status, _, page := e.Post(e.Client("pat"), paths.Publish, url.Values{"cmd_id": {events.NewID(e.Cmd.Now())},
		"ranking": {"nope"}, "proposals": {webtest.DemoReady}, "preview_hash": {pv.Hash}})
	if status != http.StatusNotFound || !strings.Contains(webtest.ByTestID(page, "form-error").Text(), "no such ranking") {
		t.Errorf("unknown ranking: status %d, %q", status, webtest.ByTestID(page, "form-error").Text())
	}
	// Signed out: sent to sign in, and a post is refused.
	anon := e.Client("")
	if res, _ := anon.Do(http.MethodGet, paths.Publish, nil, nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("signed out: status %d, want 303 to sign in", res.StatusCode)
	}
}

func TestPublishDemoProposalOnceAndTheRankingChanges(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	c := e.Client("pat")
	doc := e.Get(c, paths.Publish, http.StatusOK)
	sec := webtest.ByTestID(doc, "publish-ranking-"+demo.RankingSlug)
	box := sec.Find(`[data-testid="candidate-` + webtest.DemoReady + `"] input[type=checkbox]`)
	if _, checked := box.Attr("checked"); !checked {
		t.Fatal("the cross-validated proposal is not checked by default")
	}
	if got := strings.TrimSpace(sec.Find(`[data-testid="preview-number"]`).Text()); !strings.Contains(got, "2") {
		t.Errorf("preview title %q, want edition 2", got)
	}
	change := sec.Find(`[data-testid="preview-change-` + webtest.DemoReady + `-score:` + demo.CritOnboarding + `"]`)
	if change.Length() != 1 || strings.TrimSpace(change.Find(`[data-testid="change-from"]`).Text()) != "–" {
		t.Errorf("preview change row: %q", change.Text())
	}
	if href, _ := change.Find(`[data-testid="change-proposal"]`).Attr("href"); href != "/desk/proposals/"+webtest.DemoReady {
		t.Errorf("change links to %q", href)
	}
	if rows := sec.Find(`[data-testid^="preview-row-"]`).Length(); rows != 9 {
		t.Errorf("preview ranking has %d rows, want 9", rows)
	}

	// Publishing asks first: a box the browser requires ticked.
	if box := sec.Find(`[data-testid="publish-form-` + demo.RankingSlug + `"] input[type="checkbox"][name="confirm"][required]`); box.Length() != 1 {
		t.Error("the publish form does not ask for confirmation")
	}
	form := webtest.FormValues(sec.Find(`[data-testid="publish-form-` + demo.RankingSlug + `"]`))
	form.Set("note", "Onboarding for Qingjiao")
	form.Set("confirm", "1")
	before := e.LastSeq()
	status, loc, _ := e.Post(c, paths.Publish, form)
	if status != http.StatusSeeOther || loc != "/r/"+demo.RankingSlug+"/editions/2?published=2" {
		t.Fatalf("publish: status %d, Location %q; want 303 to edition 2", status, loc)
	}
	// The page it lands on says so, to the publisher, in either language;
	// the edition's address without the mark says nothing.
	for lang, want := range map[string]string{"en": "Edition 2 published.", "zh": "第 2 期已发布。"} {
		c.Header.Set("Accept-Language", lang)
		if got := webtest.TestText(e.Get(c, loc, http.StatusOK), "notice"); got != want {
			t.Errorf("%s: the edition page after publishing says %q, want %q", lang, got, want)
		}
	}
	c.Header.Del("Accept-Language")
	if got := webtest.TestText(e.Get(c, "/r/"+demo.RankingSlug+"/editions/2", http.StatusOK), "notice"); got != "" {
		t.Errorf("the edition page itself says %q", got)
	}
	published := e.LastSeq()
	if published == before {
		t.Fatal("publishing appended nothing")
	}

	// The read models show the new edition at once (read-your-writes).
	ev, err := e.Read.Entry(e.Ctx, demo.RankingSlug, "qingjiao")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Edition != 2 || !slices.ContainsFunc(ev.Scores, func(s projections.ScoreView) bool { return s.Criterion == demo.CritOnboarding }) {
		t.Errorf("after publishing: edition %d, scores %+v; want edition 2 with an onboarding score", ev.Edition, ev.Scores)
	}

	// The same form again (a double click, a reload) publishes nothing more.
	status, loc, _ = e.Post(c, paths.Publish, form)
	if status != http.StatusSeeOther || loc != "/r/"+demo.RankingSlug+"/editions/2?published=2" {
		t.Errorf("second submit: status %d, Location %q; want the same 303", status, loc)
	}
	if again := e.LastSeq(); again != published {
		t.Errorf("second submit appended events: sequence %d → %d", published, again)
	}
	if ed, _ := e.Cmd.Edition(e.Ctx, demo.RankingSlug); ed.Number != 2 {
		t.Errorf("edition %d after a double submit, want 2", ed.Number)
	}

	// Nothing is left to publish.
	doc = e.Get(c, paths.Publish, http.StatusOK)
	if webtest.ByTestID(doc, "publish-nothing").Length() != 1 {
		t.Error("the publish page still offers proposals")
	}
}

func TestPublishStalePreviewIsRefusedWithTheNewPreview(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	c := e.Client("pat")
	doc := e.Get(c, paths.Publish, http.StatusOK)
	form := webtest.FormValues(webtest.ByTestID(doc, "publish-form-"+demo.RankingSlug))
	oldHash := form.Get("preview_hash")

	// The proposal is revised and approved again after the preview: it
	// changed. (A vote alone changes nothing the edition holds.)
	webtest.Revalidated(t, e.AdminEnv, webtest.DemoReady)

	before := e.LastSeq()
	status, _, page := e.Post(c, paths.Publish, form)
	if status != http.StatusConflict {
		t.Fatalf("stale preview: status %d, want 409", status)
	}
	if after := e.LastSeq(); after != before {
		t.Errorf("a refused publish appended events: %d → %d", before, after)
	}
	msg := webtest.ByTestID(page, "form-error").Text()
	if !strings.Contains(msg, "since your preview") || !strings.Contains(msg, webtest.DemoReady) {
		t.Errorf("message %q", msg)
	}
	newForm := webtest.FormValues(webtest.ByTestID(page, "publish-form-"+demo.RankingSlug))
	pv, _, _ := e.Cmd.PreviewEdition(e.Ctx, demo.RankingSlug, []string{webtest.DemoReady})
	if newHash := newForm.Get("preview_hash"); newHash == oldHash || newHash != pv.Hash {
		t.Fatalf("the page shows preview %s; the old was %s, the current is %s", newHash, oldHash, pv.Hash)
	}

	// A made-up hash is refused the same way.
	bad := url.Values{}
	for k, v := range newForm {
		bad[k] = v
	}
	bad.Set("preview_hash", strings.Repeat("0", 64))
	if status, _, _ := e.Post(c, paths.Publish, bad); status != http.StatusConflict {
		t.Errorf("made-up hash: status %d, want 409", status)
	}

	// The new preview publishes.
	if status, loc, _ := e.Post(c, paths.Publish, newForm); status != http.StatusSeeOther || !strings.HasSuffix(loc, "/editions/2?published=2") {
		t.Errorf("publishing the new preview: status %d, Location %q", status, loc)
	}
}

func TestPublishOwnProposalIsMarkedAndRefused(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	own := crossValidated(t, e, "pia", "aliyun", demo.CritGraphics)

	// pia authored it: she sees why she cannot choose it.
	c := e.Client("pia")
	doc := e.Get(c, paths.Publish, http.StatusOK)
	cand := webtest.ByTestID(doc, "candidate-"+own)
	if _, disabled := cand.Find("input").Attr("disabled"); !disabled {
		t.Error("the author's own proposal can be chosen")
	}
	if note := webtest.ByTestID(doc, "candidate-own-"+own).Text(); !strings.Contains(note, "cannot publish") {
		t.Errorf("own note %q", note)
	}
	if _, checked := webtest.ByTestID(doc, "candidate-"+webtest.DemoReady).Find("input").Attr("checked"); !checked {
		t.Error("another author's proposal is not checked for pia")
	}

	// Forcing it into the form is refused by the domain, nothing stored.
	pv, _, err := e.Cmd.PreviewEdition(e.Ctx, demo.RankingSlug, []string{own})
	if err != nil {
		t.Fatal(err)
	}
	before := e.LastSeq()
	status, _, page := e.Post(c, paths.Publish, url.Values{"cmd_id": {events.NewID(e.Cmd.Now())},
		"ranking": {demo.RankingSlug}, "proposals": {own}, "preview_hash": {pv.Hash}})
	if status != http.StatusForbidden || !strings.Contains(webtest.ByTestID(page, "form-error").Text(), "cannot publish") {
		t.Errorf("publishing one's own proposal: status %d, message %q", status, webtest.ByTestID(page, "form-error").Text())
	}
	if e.LastSeq() != before {
		t.Error("a refused publish appended events")
	}

	// pat may, and can choose a subset: the preview covers only it.
	pat := e.Client("pat")
	doc = e.Get(pat, paths.Publish+"?"+url.Values{"ranking": {demo.RankingSlug}, "p": {own}}.Encode(), http.StatusOK)
	if _, checked := webtest.ByTestID(doc, "candidate-"+webtest.DemoReady).Find("input").Attr("checked"); checked {
		t.Error("an unchosen proposal is checked")
	}
	if n := doc.Find(`[data-testid^="preview-change-` + webtest.DemoReady + `"]`).Length(); n != 0 {
		t.Errorf("the preview holds %d changes of an unchosen proposal", n)
	}
	if n := doc.Find(`[data-testid^="preview-change-` + own + `"]`).Length(); n != 1 {
		t.Errorf("the preview holds %d changes of the chosen proposal, want 1", n)
	}
	form := webtest.FormValues(webtest.ByTestID(doc, "publish-form-"+demo.RankingSlug))
	if got := form["proposals"]; !slices.Equal(got, []string{own}) {
		t.Errorf("the publish form carries %v", got)
	}
	// Choosing nothing previews nothing and says why.
	doc = e.Get(pat, paths.Publish+"?ranking="+demo.RankingSlug, http.StatusOK)
	if webtest.ByTestID(doc, "preview-error").Length() != 1 || webtest.ByTestID(doc, "preview").Length() != 0 {
		t.Error("an empty choice shows a preview")
	}
	if status, _, _ := e.Post(pat, paths.Publish, form); status != http.StatusSeeOther {
		t.Errorf("pat publishing pia's proposal: status %d", status)
	}
}

// crossValidated has author open a proposal changing criterion of entry,
// with one evidence item, and has rev and rex approve it.
func crossValidated(t *testing.T, e *adminEnv, author, entry, criterion string) string {
	t.Helper()
	ctx := e.Ctx
	a := domain.Actor{Name: author, Roles: webtest.AdminUsers[author]}
	id := events.NewID(e.Cmd.Now())
	ed, _ := e.Cmd.Edition(ctx, demo.RankingSlug)
	to := (ed.Entry(entry).Scores[criterion] + 1) % 11
	steps := []func() (handler.Result, error){
		func() (handler.Result, error) {
			return e.Cmd.OpenProposal(ctx, a, domain.OpenProposal{ID: id, Ranking: demo.RankingSlug, Entry: entry,
				Title: "Graphics for " + entry})
		},
		func() (handler.Result, error) {
			return e.Cmd.AddEvidence(ctx, a, domain.AddEvidence{Proposal: id, Claim: events.Text{En: "Remote desktops are offered"},
				SourceURL: "https://example.com/desktops", Excerpt: "remote desktops", ObservedOn: "2026-01-31"})
		},
		func() (handler.Result, error) {
			return e.Cmd.ProposeScore(ctx, a, domain.ProposeScore{Proposal: id, Criterion: criterion, To: to,
				Rationale: events.Text{En: "new offer"}, Evidence: []string{"e1"}})
		},
		func() (handler.Result, error) { return e.Cmd.Submit(ctx, a, domain.Submit{Proposal: id}) },
	}
	for _, voter := range []string{"rev", "rex"} {
		steps = append(steps, func() (handler.Result, error) {
			return e.Cmd.CastVote(ctx, domain.Actor{Name: voter, Roles: webtest.AdminUsers[voter]},
				domain.CastVote{Proposal: id, Revision: 1, Verdict: events.Approve, VerifiedEvidence: []string{"e1"}})
		})
	}
	for i, step := range steps {
		if _, err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	e.CaughtUp()
	if p, _ := e.Cmd.Proposal(ctx, id); p.Status != domain.StatusCrossValidated {
		t.Fatalf("proposal %s is %s", id, p.Status)
	}
	return id
}
