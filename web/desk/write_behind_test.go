package desk_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestWriteAnswerSaysReadModelsBehind: a write is stored, but this
// server's read models do not show it within the wait (issue 45 item 2: a
// cluster replica whose own disk is full answered 201 and then showed
// stale pages). The JSON answer says so in X-Crossrank-Read-Models, and
// the page a desk form leads to says it in the reader's language; while
// the read models keep up, neither does.
func TestWriteAnswerSaysReadModelsBehind(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	_, ids := readyRanking(t, e, 45)
	rev := e.Client("rev")
	comment := func(id string) *http.Response {
		t.Helper()
		res, body := rev.PostJSON("/api/v1/proposals/"+id+"/comments", map[string]any{"body": "Checked the source."}, nil)
		if res.StatusCode != http.StatusCreated {
			t.Fatalf("comment: status %d, %.300s", res.StatusCode, body)
		}
		return res
	}
	if got := comment(ids[0]).Header.Get(command.ReadModelsHeader); got != "" {
		t.Errorf("read models keeping up: %s %q, want none", command.ReadModelsHeader, got)
	}
	status, loc, _ := e.Post(rev, "/desk/proposals/"+ids[0]+"/comments", url.Values{"body": {"Once more."}})
	if status != http.StatusSeeOther || strings.Contains(loc, "behind") {
		t.Errorf("desk comment, read models keeping up: %d to %q; want 303 without behind", status, loc)
	}

	e.StopProjection()
	before := e.LastSeq()
	if got := comment(ids[1]).Header.Get(command.ReadModelsHeader); got != command.ReadModelsBehind {
		t.Errorf("read models stopped: %s %q, want %q", command.ReadModelsHeader, got, command.ReadModelsBehind)
	}
	if e.LastSeq() == before {
		t.Error("the comment was not stored")
	}
	status, loc, _ = e.Post(rev, "/desk/proposals/"+ids[1]+"/comments", url.Values{"body": {"And again."}})
	if status != http.StatusSeeOther || !strings.Contains(loc, "behind=1") {
		t.Fatalf("desk comment, read models stopped: %d to %q; want 303 to an address with behind=1", status, loc)
	}
	e.StartProjection()
	e.CaughtUp()
	for lang, want := range map[string]string{"en": "may not show your change yet", "zh": "可能暂时看不到你的修改"} {
		res, body := rev.Do(http.MethodGet, loc, nil, http.Header{"Accept-Language": {lang}})
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", loc, res.StatusCode)
		}
		if got := webtest.TestText(webtest.Doc(t, body), "notice"); !strings.Contains(got, want) {
			t.Errorf("%s: the page after the write says %q, want it to contain %q", lang, got, want)
		}
	}
}
