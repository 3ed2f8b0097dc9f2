package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/webtest"
)

func TestAPIScheduleEdition(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	pat, ed := e.Client("pat"), e.Client("ed")
	ids, err := e.Read.CrossValidated(e.Ctx, demo.RankingSlug)
	if err != nil || len(ids) == 0 {
		t.Fatalf("cross-validated: %v %v", ids, err)
	}
	pv, _, err := e.Cmd.PreviewEdition(e.Ctx, demo.RankingSlug, ids)
	if err != nil {
		t.Fatal(err)
	}
	base := "/api/v1/rankings/" + demo.RankingSlug + "/editions/schedule"
	at := time.Now().Add(time.Hour).In(time.FixedZone("CST", 8*3600)).Format(time.RFC3339)
	body := func(hash, at string) map[string]any {
		return map[string]any{"proposals": ids, "preview_hash": hash, "at": at, "note": "morning edition"}
	}

	refused := []struct {
		name   string
		c      *webtest.Client
		body   map[string]any
		status int
		field  string
	}{
		{"in the past", pat, body(pv.Hash, time.Now().Add(-time.Minute).Format(time.RFC3339)), http.StatusUnprocessableEntity, "at"},
		{"over a year ahead", pat, body(pv.Hash, time.Now().AddDate(1, 1, 0).Format(time.RFC3339)), http.StatusUnprocessableEntity, "at"},
		{"not a time", pat, body(pv.Hash, "tomorrow at nine"), http.StatusBadRequest, "at"},
		{"another preview", pat, body(strings.Repeat("0", 64), at), http.StatusConflict, ""},
		{"not a publisher", ed, body(pv.Hash, at), http.StatusForbidden, ""},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			before := e.LastSeq()
			res, got := tc.c.PostJSON(base, tc.body, nil)
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d; body %s", res.StatusCode, tc.status, got)
			}
			p := webtest.DecodeProblem(t, res, got)
			if tc.field != "" && (len(p.Errors) != 1 || p.Errors[0].Field != tc.field) {
				t.Errorf("field errors %+v, want one on %q", p.Errors, tc.field)
			}
			if tc.status == http.StatusConflict && !strings.Contains(got, `"preview_hash":"`+pv.Hash+`"`) {
				t.Errorf("409 without the current preview: %s", got)
			}
			if after := e.LastSeq(); after != before {
				t.Errorf("stored %d events", after-before)
			}
		})
	}

	key := http.Header{"Idempotency-Key": {"morning-edition"}}
	before := e.LastSeq()
	res, got := pat.PostJSON(base, body(pv.Hash, at), key)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("schedule: status %d, body %s", res.StatusCode, got)
	}
	var s command.Scheduled
	if err := json.Unmarshal([]byte(got), &s); err != nil {
		t.Fatal(err)
	}
	// Sent again with its key: the same schedule, nothing more stored.
	res, got = pat.PostJSON(base, body(pv.Hash, at), key)
	var again command.Scheduled
	if err := json.Unmarshal([]byte(got), &again); err != nil || res.StatusCode != http.StatusCreated ||
		again.ID != s.ID || !again.Replayed || e.LastSeq() != before+1 {
		t.Errorf("retry: %d %s; want the replay of %s, one event stored", res.StatusCode, got, s.ID)
	}
	if s.ID == "" || s.At != at || s.State != domain.SchedulePending || res.Header.Get("Location") != base+"/"+s.ID {
		t.Errorf("answer %+v, Location %q; want pending at %s", s, res.Header.Get("Location"), at)
	}

	list := func() api.ScheduleList {
		t.Helper()
		res, got := pat.Do(http.MethodGet, base, nil, nil)
		var l api.ScheduleList
		if err := json.Unmarshal([]byte(got), &l); err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("list: %d %v %s", res.StatusCode, err, got)
		}
		return l
	}
	if l := list(); len(l.Upcoming) != 1 || l.Upcoming[0].ID != s.ID || l.Upcoming[0].By != "pat" || len(l.Past) != 0 {
		t.Errorf("list after scheduling: %+v", l)
	}
	res, got = pat.Do(http.MethodGet, res.Header.Get("Location"), nil, nil)
	var one api.Schedule
	if err := json.Unmarshal([]byte(got), &one); err != nil || res.StatusCode != http.StatusOK || one.ID != s.ID ||
		one.At != at || one.Note != "morning edition" || len(one.Proposals) != len(ids) {
		t.Errorf("GET its Location: %d %v %s", res.StatusCode, err, got)
	}
	if res, got := pat.Do(http.MethodGet, base+"/nope", nil, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET a missing schedule: %d %s", res.StatusCode, got)
	}

	if res, got := pat.Do(http.MethodGet, "/api/v1/rankings/no-such-ranking/editions/schedule", nil, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("schedules of a missing ranking: %d %s", res.StatusCode, got)
	}
	res, got = ed.Do(http.MethodDelete, base+"/"+s.ID, nil, nil)
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("an editor cancels: status %d, body %s", res.StatusCode, got)
	}
	res, got = pat.Do(http.MethodDelete, base+"/"+s.ID, nil, nil)
	if res.StatusCode != http.StatusNoContent || got != "" {
		t.Fatalf("cancel: status %d, body %q", res.StatusCode, got)
	}
	if l := list(); len(l.Upcoming) != 0 || len(l.Past) != 1 || l.Past[0].State != domain.ScheduleCanceled {
		t.Errorf("list after the cancel: %+v", l)
	}
	res, got = pat.Do(http.MethodDelete, base+"/"+s.ID, nil, nil)
	if res.StatusCode != http.StatusConflict {
		t.Errorf("cancel twice: status %d, body %s", res.StatusCode, got)
	}
}

// TestAPIScheduledEditionsSoonestFirst: upcoming editions are listed by
// their moment as a time, whatever offset each publisher wrote it in.
func TestAPIScheduledEditionsSoonestFirst(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	pat := e.Client("pat")
	ids, err := e.Read.CrossValidated(e.Ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	base := "/api/v1/rankings/" + demo.RankingSlug + "/editions/schedule"
	soon := time.Now().Add(2 * time.Hour).Truncate(time.Hour)
	// Scheduled first, and first as text ("…T02:00:00Z" < "…T09:00:00+08:00"), but an hour later.
	later := soon.Add(time.Hour).UTC().Format(time.RFC3339)
	sooner := soon.In(time.FixedZone("CST", 8*3600)).Format(time.RFC3339)
	var want []string
	for _, at := range []string{later, sooner} {
		// A schedule changes the edition, and so the preview's hash.
		pv, _, err := e.Cmd.PreviewEdition(e.Ctx, demo.RankingSlug, ids)
		if err != nil {
			t.Fatal(err)
		}
		res, got := pat.PostJSON(base, map[string]any{"proposals": ids, "preview_hash": pv.Hash, "at": at}, nil)
		var s command.Scheduled
		if err := json.Unmarshal([]byte(got), &s); err != nil || res.StatusCode != http.StatusCreated {
			t.Fatalf("schedule at %s: %d %s", at, res.StatusCode, got)
		}
		want = append([]string{s.ID}, want...)
	}
	res, got := pat.Do(http.MethodGet, base, nil, nil)
	var l api.ScheduleList
	if err := json.Unmarshal([]byte(got), &l); err != nil || res.StatusCode != http.StatusOK || len(l.Upcoming) != 2 {
		t.Fatalf("list: %d %v %s", res.StatusCode, err, got)
	}
	if l.Upcoming[0].ID != want[0] || l.Upcoming[1].ID != want[1] {
		t.Errorf("upcoming %s (%s), %s (%s); want %v", l.Upcoming[0].ID, l.Upcoming[0].At, l.Upcoming[1].ID, l.Upcoming[1].At, want)
	}
}

// TestAPIWorkflowRefusalsInChinese: the workflow's refusals read in the
// caller's language.
func TestAPIWorkflowRefusalsInChinese(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	pat, rex := e.Client("pat"), e.Client("rex")
	zh := http.Header{"Accept-Language": {"zh-CN"}}
	res, got := pat.PostJSON("/api/v1/rankings/"+demo.RankingSlug+"/editions/schedule", map[string]any{
		"proposals": []string{"demo-qingjiao-2"}, "preview_hash": strings.Repeat("0", 64),
		"at": time.Now().Add(-time.Hour).Format(time.RFC3339)}, zh)
	if p := webtest.DecodeProblem(t, res, got); res.StatusCode != http.StatusUnprocessableEntity || len(p.Errors) != 1 ||
		!strings.Contains(p.Errors[0].Message, "必须是将来的时间") {
		t.Errorf("scheduling in the past, in Chinese: %d %s", res.StatusCode, got)
	}
	res, got = rex.PostJSON("/api/v1/rankings/"+demo.RankingSlug+"/conflicts", map[string]any{"user": "rev", "reason": "x"}, zh)
	if res.StatusCode != http.StatusForbidden || !strings.Contains(got, "利益冲突只能由相关审核人本人声明") {
		t.Errorf("a conflict for someone else, in Chinese: %d %s", res.StatusCode, got)
	}
}
