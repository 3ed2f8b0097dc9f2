package desk_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestDeskImportRefusesBadInput: an upload over the limit is 413; a CSV
// with a bad row, a score outside 0–10, an unknown criterion and an entry
// in a category that does not exist are named by line and column, in
// both languages, and nothing is stored.
func TestDeskImportRefusesBadInput(t *testing.T) {
	e := newDemoEnv(t)
	c := e.Client("editor")
	before := e.LastSeq()

	res, _ := upload(c, "big.json", bytes.Repeat([]byte(" "), rankfile.MaxSize+1), "")
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a file over the limit: status %d, want 413", res.StatusCode)
	}

	res, _ = c.Do(http.MethodPost, "/api/v1/imports?ranking="+demo.RankingSlug, bytes.NewReader(bytes.Repeat([]byte("a"), rankfile.MaxSize+1)),
		http.Header{"Content-Type": {"text/csv"}})
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("an API upload over the limit: status %d, want 413", res.StatusCode)
	}

	const head = "entry,entry_name_zh,entry_name_en,category,criterion,score,rationale,evidence_claim,source_url,excerpt,observed_on\r\n"
	const ok = ",Why,Claim,https://example.org/a,Quote,2026-11-01\r\n"
	for _, c2 := range []struct {
		name, row, header, code string
	}{
		{"a row with a cell too many", "ppio,,,,gpu-coverage,5,Why,Claim,https://example.org/a,Quote,2026-11-01,extra\r\n", "", "csv.field_count"},
		{"a score that is not a number", "ppio,,,,gpu-coverage,five" + ok, "score", "field.whole_number"},
		{"a score outside 0–10", "ppio,,,,gpu-coverage,11" + ok, "score", "field.score"},
		{"an unknown criterion", "ppio,,,,speed,5" + ok, "criterion", "ranking.not_criterion"},
		{"a category that does not exist", "newco,新公司,NewCo,nowhere,gpu-coverage,5" + ok, "category", "ranking.not_category"},
	} {
		t.Run(c2.name, func(t *testing.T) {
			file := head + "zhixingyun,,,,gpu-coverage,9" + ok + c2.row
			words := map[string]string{}
			for _, lang := range []string{"en", "zh-CN"} {
				res, body := upload(c, "bad.csv", []byte(file), demo.RankingSlug, "Accept-Language", lang)
				if res.StatusCode != http.StatusSeeOther {
					t.Fatalf("upload: %d %.300s", res.StatusCode, body)
				}
				doc := importPage(c, res.Header.Get("Location"), "Accept-Language", lang)
				probs := doc.Find(`[data-testid="import-problem"]`)
				if probs.Length() != 1 {
					t.Fatalf("%s: %d problems, want 1: %s", lang, probs.Length(), probs.Text())
				}
				where := probs.Find(`[data-testid="import-problem-where"]`).Text()
				if !strings.Contains(where, "3") || !strings.Contains(where, c2.header) {
					t.Errorf("%s: placed at %q, want line 3, column %q", lang, where, c2.header)
				}
				if doc.Find(`[data-testid="import-confirm"]`).Length() != 0 {
					t.Errorf("%s: a file with a problem can be confirmed", lang)
				}
				words[lang] = probs.Find(`[data-testid="import-problem-message"]`).Text()
			}
			if words["en"] == "" || words["en"] == words["zh-CN"] || !hasHan(words["zh-CN"]) {
				t.Errorf("the problem in English %q and Chinese %q", words["en"], words["zh-CN"])
			}
		})
	}

	// The API says the same, with the code, line and column.
	res, body := c.Do(http.MethodPost, "/api/v1/imports?ranking="+demo.RankingSlug, strings.NewReader(head+"ppio,,,,speed,5"+ok),
		http.Header{"Content-Type": {"text/csv"}})
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("API import: %d %.300s", res.StatusCode, body)
	}
	imp := apiImportDone(t, c, res.Header.Get("Location"))
	if len(imp.Summary.Problems) != 1 || imp.Summary.Problems[0].Code != "ranking.not_criterion" ||
		imp.Summary.Problems[0].Line != 2 || imp.Summary.Problems[0].Header != "criterion" || !hasHan(imp.Summary.Problems[0].Message.Zh) {
		t.Errorf("API problems: %+v", imp.Summary.Problems)
	}
	res, _ = c.Do(http.MethodPost, res.Header.Get("Location")+"/confirm", nil, nil)
	if res.StatusCode != http.StatusConflict {
		t.Errorf("confirming a file with problems: %d, want 409", res.StatusCode)
	}
	if n := e.LastSeq(); n != before {
		t.Errorf("refused imports stored events: stream %d → %d", before, n)
	}
}

func hasHan(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff })
}

// apiImport is the API's answer about an import, as far as tests read it.
type apiImport struct {
	State   string `json:"state"`
	Opened  int    `json:"opened"`
	Summary struct {
		Entries       int `json:"entries"`
		NewEntries    int `json:"new_entries"`
		ChangedScores int `json:"changed_scores"`
		Open          int `json:"open"`
		AlreadyOpen   int `json:"already_open"`
		Problems      []struct {
			Code    string `json:"code"`
			Line    int    `json:"line"`
			Header  string `json:"header"`
			Message struct {
				En string `json:"en"`
				Zh string `json:"zh"`
			} `json:"message"`
		} `json:"problems"`
	} `json:"summary"`
}

// apiImportDone polls an import until it no longer runs.
func apiImportDone(t *testing.T, c *webtest.Client, location string) apiImport {
	t.Helper()
	for {
		res, body := c.Do(http.MethodGet, location, nil, nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %.300s", location, res.StatusCode, body)
		}
		var imp apiImport
		if err := json.Unmarshal([]byte(body), &imp); err != nil {
			t.Fatal(err)
		}
		if imp.State != "checking" && imp.State != "opening" {
			return imp
		}
		time.Sleep(20 * time.Millisecond) // polling, as a client does
	}
}

// TestAPIImportAtScale dry-runs a generated file of 10,000 entries × 10
// criteria × 3 evidence items (2,000 under -race) through the API: the counts are right and
// nothing is stored.
func TestAPIImportAtScale(t *testing.T) {
	if testing.Short() {
		t.Skip("full run only: imports a 10,000-entry ranking file; go test -short skips it")
	}
	e := newDemoEnv(t)
	c := e.Client("editor")
	n := 10_000
	if raceEnabled {
		n = 2_000
	}
	data, err := json.Marshal(rankfile.Generate("big", rankfile.Size{Entries: n, Criteria: 10, Evidence: 3, Seed: 26}))
	if err != nil {
		t.Fatal(err)
	}
	before := e.LastSeq()
	res, body := c.Do(http.MethodPost, "/api/v1/imports?dry_run=true", bytes.NewReader(data), http.Header{"Content-Type": {"application/json"}})
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("API import: %d %.300s", res.StatusCode, body)
	}
	imp := apiImportDone(t, c, res.Header.Get("Location"))
	s := imp.Summary
	if imp.State != "checked" || len(s.Problems) != 0 || s.Entries != n || s.NewEntries != n ||
		s.ChangedScores != n*10 || s.Open != n+1 || s.AlreadyOpen != 0 {
		t.Errorf("dry run of %d entries: %+v", n, imp)
	}
	if n := e.LastSeq(); n != before {
		t.Errorf("a dry run stored events: stream %d → %d", before, n)
	}
}
