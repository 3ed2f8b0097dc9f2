package desk_test

import (
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// auditSeqs returns the sequences of the rows on an audit page.
func auditSeqs(t *testing.T, doc *goquery.Document) []uint64 {
	t.Helper()
	var out []uint64
	webtest.ByTestID(doc, "audit-row").Each(func(_ int, s *goquery.Selection) {
		v, _ := s.Attr("data-seq")
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("row seq %q", v)
		}
		out = append(out, n)
	})
	return out
}

// countAudit counts the rows of the whole trail that match.
func countAudit(t *testing.T, e *adminEnv, match func(projections.AuditRow) bool) int {
	t.Helper()
	n := 0
	if err := e.Read.AuditEach(e.Ctx, projections.AuditFilter{}, func(r projections.AuditRow) error {
		if match(r) {
			n++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAuditFiltersReturnTheRightRows(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	c := e.Client("ed") // any signed-in user reads the trail
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)
	today := time.Now().UTC().Format(time.DateOnly)

	tests := []struct {
		name  string
		query url.Values
		match func(projections.AuditRow) bool
	}{
		{"proposal", url.Values{"proposal": {webtest.DemoReady}}, func(r projections.AuditRow) bool { return r.Proposal == webtest.DemoReady }},
		{"entry", url.Values{"ranking": {demo.RankingSlug}, "entry": {"matpool"}},
			func(r projections.AuditRow) bool { return r.Entry == "matpool" }},
		{"user", url.Values{"actor": {"reviewer1"}}, func(r projections.AuditRow) bool { return r.Actor == "reviewer1" }},
		{"type", url.Values{"type": {events.TypeVoteCast}},
			func(r projections.AuditRow) bool { return r.Type == events.TypeVoteCast }},
		// The older version filters the same: the demo's votes are v2,
		// and vote_cast.v1 names the same event.
		{"older version of the type", url.Values{"type": {"crossrank.proposal.vote_cast.v1"}},
			func(r projections.AuditRow) bool { return r.Type == events.TypeVoteCast }},
		{"type and user", url.Values{"type": {events.TypeVoteCast}, "actor": {"reviewer2"}},
			func(r projections.AuditRow) bool {
				return r.Type == events.TypeVoteCast && r.Actor == "reviewer2"
			}},
		{"today", url.Values{"from": {today}, "to": {today}}, func(projections.AuditRow) bool { return true }},
		{"from tomorrow", url.Values{"from": {tomorrow}}, func(projections.AuditRow) bool { return false }},
		{"until yesterday", url.Values{"to": {time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)}},
			func(projections.AuditRow) bool { return false }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.query.Set("limit", "500")
			doc := e.Get(c, paths.Audit+"?"+tc.query.Encode(), http.StatusOK)
			seqs := auditSeqs(t, doc)
			if want := countAudit(t, e, tc.match); len(seqs) != want {
				t.Fatalf("%d rows, want %d", len(seqs), want)
			}
			if len(seqs) == 0 && webtest.ByTestID(doc, "audit-empty").Length() != 1 {
				t.Error("no rows and no message saying so")
			}
			webtest.ByTestID(doc, "audit-row").Each(func(_ int, row *goquery.Selection) {
				typ, _ := row.Attr("data-type")
				if v := tc.query.Get("type"); v != "" && !slices.Contains(events.Versions(v), typ) {
					t.Errorf("row of type %s", typ)
				}
				if v := tc.query.Get("actor"); v != "" && row.Find(`[data-testid="audit-row-actor"]`).Text() != v {
					t.Errorf("row by %s", row.Find(`[data-testid="audit-row-actor"]`).Text())
				}
				if v := tc.query.Get("proposal"); v != "" {
					if href, _ := row.Find(`[data-testid="audit-row-subject"]`).Attr("href"); href != "/desk/proposals/"+v {
						t.Errorf("row subject links to %q", href)
					}
				}
				if tc.query.Has("entry") {
					if href, _ := row.Find(`[data-testid="audit-row-entry"], a[data-testid="audit-row-subject"]`).Last().Attr("href"); href != "/desk/entries/"+demo.RankingSlug+"/matpool" {
						t.Errorf("row links to entry %q", href)
					}
				}
			})
			// The filter form keeps the choice.
			if v := tc.query.Get("actor"); v != "" {
				if got, _ := doc.Find(`#f-actor option[selected]`).Attr("value"); got != v {
					t.Errorf("actor select shows %q", got)
				}
			}
			// The type list offers each event once, at its current version,
			// and shows it chosen whichever version the query named.
			if v := tc.query.Get("type"); v != "" {
				if got, _ := doc.Find(`#f-type option[selected]`).Attr("value"); got != events.TypeVoteCast {
					t.Errorf("type select shows %q for type=%s", got, v)
				}
			}
			var offered []string
			doc.Find(`#f-type option`).Each(func(_ int, o *goquery.Selection) {
				if v, _ := o.Attr("value"); v != "" {
					offered = append(offered, v)
				}
			})
			if !slices.Contains(offered, events.TypeVoteCast) || slices.Contains(offered, "crossrank.proposal.vote_cast.v1") {
				t.Errorf("the type list offers %v", offered)
			}
		})
	}

	// A malformed day is explained, in the reader's language.
	res, body := c.Do(http.MethodGet, paths.Audit+"?from=31/01/2026&lang=zh", nil, nil)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(webtest.ByTestID(webtest.Doc(t, body), "audit-error").Text(), "起始日期") {
		t.Errorf("bad day: status %d, error %q", res.StatusCode, webtest.ByTestID(webtest.Doc(t, body), "audit-error").Text())
	}
	if res, _ := c.Do(http.MethodGet, paths.Audit+"?upto=abc", nil, nil); res.StatusCode != http.StatusBadRequest {
		t.Errorf("bad sequence: status %d", res.StatusCode)
	}
	// Signed out readers are sent to sign in.
	if res, _ := e.Client("").Do(http.MethodGet, paths.Audit, nil, nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("signed out: status %d", res.StatusCode)
	}
}

func TestAuditPagesNewestFirstInBothLanguages(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	c := e.Client("rev")
	last := e.LastSeq()
	doc := e.Get(c, paths.Audit, http.StatusOK)
	first := auditSeqs(t, doc)
	if len(first) != projections.DefaultAuditLimit || first[0] != last {
		t.Fatalf("first page: %d rows from %d; want %d from %d", len(first), first[0], projections.DefaultAuditLimit, last)
	}
	if webtest.ByTestID(doc, "page-prev").Length() != 0 {
		t.Error("the newest page links to newer rows")
	}
	if got := webtest.ByTestID(doc, "audit-seq").Text(); got != strconv.FormatUint(last, 10) {
		t.Errorf("checkpoint shown %q, want %d", got, last)
	}
	if head := webtest.ByTestID(doc, "audit-head").Text(); len(head) != 64 {
		t.Errorf("chain head %q", head)
	}
	older, _ := webtest.ByTestID(doc, "page-next").Attr("href")
	doc = e.Get(c, older, http.StatusOK)
	second := auditSeqs(t, doc)
	if len(second) == 0 || second[0] != first[len(first)-1]-1 {
		t.Fatalf("second page starts at %v, the first ended at %d", second[:1], first[len(first)-1])
	}
	newer, _ := webtest.ByTestID(doc, "page-prev").Attr("href")
	if back := auditSeqs(t, e.Get(c, newer, http.StatusOK)); back[0] != first[0] || len(back) != len(first) {
		t.Errorf("back to newer: from %d (%d rows)", back[0], len(back))
	}

	// The reader's language: summaries, event names and times in Chinese.
	doc = e.Get(c, paths.Audit+"?lang=zh&type=crossrank.edition.published.v1", http.StatusOK)
	row := webtest.ByTestID(doc, "audit-row").First()
	if s := row.Find(`[data-testid="audit-row-summary"]`).Text(); !strings.Contains(s, "发布第 1 期") {
		t.Errorf("Chinese summary %q", s)
	}
	if !strings.Contains(row.Find("time").Text(), "年") || !strings.Contains(row.Text(), "发布新一期") {
		t.Errorf("Chinese row %q", row.Text())
	}
	doc = e.Get(c, paths.Audit+"?lang=en&type=crossrank.edition.published.v1", http.StatusOK)
	if s := webtest.ByTestID(doc, "audit-row-summary").First().Text(); !strings.Contains(s, "Published edition 1") {
		t.Errorf("English summary %q", s)
	}
}

func TestAuditCSVEscapesAndParsesBack(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	// A proposal whose id a spreadsheet would take for a formula, and a
	// title with a comma, quotes and non-ASCII text.
	ed := domain.Actor{Name: "ed", Roles: []string{domain.RoleEditor}}
	if _, err := e.Cmd.OpenProposal(e.Ctx, ed, domain.OpenProposal{ID: "-2-3", Ranking: demo.RankingSlug,
		Entry: "aliyun", Title: `=HYPERLINK("http://evil"), "quoted", 中文`}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	c := e.Client("ed")
	res, body := c.Do(http.MethodGet, paths.Audit+"?format=csv&actor=ed", nil, nil)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: status %d, type %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if cd := res.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") {
		t.Errorf("Content-Disposition %q", cd)
	}
	recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatalf("the export does not parse: %v", err)
	}
	header := []string{"seq", "at", "actor", "kind", "aggregate", "type", "event_id",
		"msg", "args", "before", "after", "ranking", "entry", "proposal", "hash", "authvia", "text"}
	if strings.Join(recs[0], ",") != strings.Join(header, ",") {
		t.Errorf("header %v", recs[0])
	}
	rows := recs[1:]
	var want []projections.AuditRow
	_ = e.Read.AuditEach(e.Ctx, projections.AuditFilter{Actor: "ed"}, func(r projections.AuditRow) error {
		want = append(want, r)
		return nil
	})
	if len(rows) != len(want) || len(rows) == 0 {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	col := func(name string) int {
		for i, h := range header {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	for i, rec := range rows {
		if rec[col("seq")] != strconv.FormatUint(want[i].Seq, 10) || rec[col("msg")] != want[i].Msg ||
			rec[col("args")] != string(want[i].Args) || rec[col("hash")] != want[i].Hash ||
			rec[col("text")] != i18n.AuditLine(i18n.En, want[i].Msg, want[i].Args) {
			t.Errorf("row %d: %v, want %+v", i, rec, want[i])
		}
		if want[i].Proposal == "-2-3" && (rec[col("proposal")] != "'-2-3" || rec[col("aggregate")] != "'-2-3") {
			t.Errorf("a formula-like id is not guarded: %v", rec)
		}
		for _, cell := range rec[1:] {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("cell %q starts a formula", cell)
			}
		}
	}
	if !strings.Contains(body, `"Opened proposal “=HYPERLINK(""http://evil""), ""quoted"", 中文”"`) {
		t.Error("the title's quotes are not escaped as CSV requires")
	}

	// On the audit page, a title worded into the line stays text.
	if _, err := e.Cmd.OpenProposal(e.Ctx, ed, domain.OpenProposal{ID: "p-markup", Ranking: demo.RankingSlug,
		Entry: "aliyun", Title: `<img src=x onerror=alert(1)>`}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	for _, lang := range []string{i18n.En, i18n.Zh} {
		res, page := c.Do(http.MethodGet, paths.Audit+"?proposal=p-markup&lang="+lang, nil, nil)
		if res.StatusCode != http.StatusOK || strings.Contains(page, "<img src=x") || !strings.Contains(page, "&lt;img src=x onerror=alert(1)&gt;") {
			t.Errorf("%s: the title is not escaped on the audit page (status %d)", lang, res.StatusCode)
		}
	}
}

func TestAuditJSONExportParses(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	c := e.Client("ed")
	res, body := c.Do(http.MethodGet, paths.Audit+"?format=json&actor=reviewer1", nil, nil)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("json: status %d, type %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	var got struct {
		Seq  uint64                 `json:"seq"`
		Head string                 `json:"head"`
		Rows []projections.AuditRow `json:"rows"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("the export does not parse: %v\n%.300s", err, body)
	}
	seq, head := e.Read.Checkpoint()
	if got.Seq != seq || got.Head != head {
		t.Errorf("export at %d %s, read models at %d %s", got.Seq, got.Head, seq, head)
	}
	if want := countAudit(t, e, func(r projections.AuditRow) bool { return r.Actor == "reviewer1" }); len(got.Rows) != want || want == 0 {
		t.Errorf("%d rows, want %d", len(got.Rows), want)
	}
	for _, r := range got.Rows {
		if r.Actor != "reviewer1" || r.At.IsZero() || len(r.Hash) != 64 {
			t.Errorf("row %+v", r)
		}
	}
	// The API serves the same, and wants a user. Each row says what its
	// event did as a message id and its arguments, and in words in the
	// reader's language.
	type apiRow struct {
		projections.AuditRow
		Text string `json:"text"`
	}
	var api struct {
		Rows []apiRow `json:"rows"`
	}
	for _, lang := range []string{i18n.En, i18n.Zh} {
		res, body = c.Do(http.MethodGet, "/api/v1/audit?actor=reviewer1", nil, http.Header{"Accept-Language": {lang}})
		if res.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &api) != nil || len(api.Rows) != len(got.Rows) {
			t.Fatalf("API: status %d, %d rows", res.StatusCode, len(api.Rows))
		}
		msgs := map[string]bool{}
		for _, r := range api.Rows {
			msgs[r.Msg] = true
			if _, ok := projections.AuditMessages()[r.Msg]; !ok || !json.Valid(r.Args) ||
				r.Text != i18n.AuditLine(lang, r.Msg, r.Args) || strings.Contains(r.Text, "{") {
				t.Errorf("%s: API row %d: msg %q, args %s, text %q", lang, r.Seq, r.Msg, r.Args, r.Text)
			}
		}
		if !msgs["vote_cast"] && !msgs["vote_cast_cross_validated"] {
			t.Errorf("%s: the reviewer's rows say %v, no vote", lang, msgs)
		}
	}
	if r := api.Rows[0]; !strings.ContainsFunc(r.Text, func(c rune) bool { return c >= 0x4e00 && c <= 0x9fff }) {
		t.Errorf("with Accept-Language zh, the API words %q", r.Text)
	}
	if res, _ := e.Client("").Do(http.MethodGet, "/api/v1/audit", nil, nil); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("API signed out: status %d", res.StatusCode)
	}
	if res, _ := c.Do(http.MethodGet, paths.Audit+"?format=xml", nil, nil); res.StatusCode != http.StatusBadRequest {
		t.Errorf("unknown format: status %d", res.StatusCode)
	}
}

func TestAuditVerifyPassesThenFailsAfterTampering(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	c := e.Client("rev")
	doc := e.Get(c, paths.Audit, http.StatusOK)
	if webtest.ByTestID(doc, "verify-result").Length() != 0 {
		t.Error("a verification result before any ran")
	}
	res, body := c.PostForm(paths.Audit+"/verify", url.Values{})
	doc = webtest.Doc(t, body)
	result := webtest.ByTestID(doc, "verify-result")
	if outcome, _ := result.Attr("data-outcome"); res.StatusCode != http.StatusOK || outcome != "passes" ||
		!strings.Contains(result.Text(), "passes") {
		t.Fatalf("verify: status %d, outcome %q, %q", res.StatusCode, outcome, result.Text())
	}

	// Tamper with one audit row's hash in the SQLite file itself.
	db, err := sql.Open("sqlite3", "file:"+e.Path+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const tampered = 7
	if _, err := db.Exec(`UPDATE audit SET hash=? WHERE seq=?`, strings.Repeat("f", 64), tampered); err != nil {
		t.Fatal(err)
	}
	_, body = c.PostForm(paths.Audit+"/verify", url.Values{})
	result = webtest.ByTestID(webtest.Doc(t, body), "verify-result")
	if outcome, _ := result.Attr("data-outcome"); outcome != "fails" || !strings.Contains(result.Text(), "sequence 7") {
		t.Fatalf("after tampering: outcome %q, %q", outcome, result.Text())
	}
	// The page remembers the latest outcome, in the reader's language.
	doc = e.Get(c, paths.Audit+"?lang=zh", http.StatusOK)
	if got := webtest.ByTestID(doc, "verify-result").Text(); !strings.Contains(got, "核验失败") || !strings.Contains(got, "7") {
		t.Errorf("remembered outcome %q", got)
	}
	// Verifying needs a user and a same-origin post.
	if res, _ := e.Client("").PostForm(paths.Audit+"/verify", url.Values{}); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("signed out verify: status %d", res.StatusCode)
	}
}
