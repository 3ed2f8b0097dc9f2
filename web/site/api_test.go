package site_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/crossrank/crossrank/web/webtest"
)

func TestPublicAPI(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	getJSON := func(target string, v any) {
		t.Helper()
		res, body := e.Get(target)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("GET %s: %d %s %.300s", target, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
		if err := json.Unmarshal([]byte(body), v); err != nil {
			t.Fatalf("GET %s: %v", target, err)
		}
	}
	var list struct {
		Rankings []struct {
			Slug    string `json:"slug"`
			Edition int    `json:"edition"`
		} `json:"rankings"`
	}
	getJSON("/api/v1/rankings", &list)
	if len(list.Rankings) != 1 || list.Rankings[0].Slug != "gpu-cloud" || list.Rankings[0].Edition != 1 {
		t.Errorf("rankings: %+v", list)
	}

	var st struct {
		Scenario string            `json:"scenario"`
		Needs    map[string]string `json:"needs"`
		Entries  []struct {
			Slug  string `json:"slug"`
			Total int    `json:"total"`
			Rank  int    `json:"rank"`
			New   bool   `json:"new"`
		} `json:"entries"`
		Excluded []struct {
			Slug       string `json:"slug"`
			ExcludedBy []struct {
				Filter string            `json:"filter"`
				Reason map[string]string `json:"reason"`
			} `json:"excluded_by"`
		} `json:"excluded"`
	}
	getJSON("/api/v1/rankings/gpu-cloud?scenario=training&interruptible=yes", &st)
	if st.Scenario != "training" || st.Needs["interruptible"] != "yes" || len(st.Entries) != 1 ||
		st.Entries[0].Slug != "ppio" || st.Entries[0].Total != 305 || st.Entries[0].Rank != 5 || !st.Entries[0].New {
		t.Errorf("training + interruptible: %+v", st)
	}
	if len(st.Excluded) != 8 || st.Excluded[0].Slug != "zhixingyun" || st.Excluded[0].ExcludedBy[0].Filter != "interruptible" ||
		st.Excluded[0].ExcludedBy[0].Reason["zh"] != "文中未提及 Spot 抢占式资源" {
		t.Errorf("excluded: %+v", st.Excluded)
	}

	for target, status := range map[string]int{
		"/api/v1/rankings/gpu-cloud?scenario=gaming":       http.StatusUnprocessableEntity,
		"/api/v1/rankings/gpu-cloud?interruptible=perhaps": http.StatusUnprocessableEntity,
		"/api/v1/rankings/nope":                            http.StatusNotFound,
		"/api/v1/rankings/gpu-cloud/editions/9":            http.StatusNotFound,
		"/api/v1/rankings/gpu-cloud/entries/nope":          http.StatusNotFound,
		"/api/v1/rankings/nope/editions":                   http.StatusNotFound,
		"/api/v1/rankings/gpu-cloud/editions/one":          http.StatusNotFound,
	} {
		res, body := e.Get(target)
		if res.StatusCode != status {
			t.Errorf("%s: %d, want %d", target, res.StatusCode, status)
			continue
		}
		webtest.DecodeProblem(t, res, body)
	}

	e.Publish("demo-qingjiao-2")
	var ed struct {
		Number     int      `json:"number"`
		NewEntries []string `json:"new_entries"`
		ChangeLog  []struct {
			Entry    string   `json:"entry"`
			Target   string   `json:"target"`
			ToScore  *int     `json:"to_score"`
			Evidence []string `json:"evidence"`
		} `json:"change_log"`
		Moves []struct {
			Entry      string `json:"entry"`
			BeforeRank *int   `json:"before_rank"`
			AfterRank  int    `json:"after_rank"`
		} `json:"moves"`
	}
	getJSON("/api/v1/rankings/gpu-cloud/editions/2", &ed)
	if ed.Number != 2 || len(ed.NewEntries) != 0 || len(ed.ChangeLog) != 1 || ed.ChangeLog[0].Target != "score:onboarding" ||
		*ed.ChangeLog[0].ToScore != 6 || len(ed.ChangeLog[0].Evidence) == 0 || len(ed.Moves) != 9 {
		t.Errorf("edition 2: %+v", ed)
	}
	var eds struct {
		Editions []struct {
			Number int `json:"number"`
		} `json:"editions"`
	}
	getJSON("/api/v1/rankings/gpu-cloud/editions", &eds)
	if len(eds.Editions) != 2 || eds.Editions[0].Number != 2 {
		t.Errorf("editions: %+v", eds)
	}
	var en struct {
		Slug   string `json:"slug"`
		Rank   int    `json:"rank"`
		Scores []struct {
			Criterion string `json:"criterion"`
			Score     int    `json:"score"`
			Evidence  []struct {
				Excerpt    string `json:"excerpt"`
				SourceName string `json:"source_name"`
				Stale      bool   `json:"stale"`
			} `json:"evidence"`
		} `json:"scores"`
		History []struct {
			Edition int `json:"edition"`
			Rank    int `json:"rank"`
		} `json:"history"`
	}
	getJSON("/api/v1/rankings/gpu-cloud/entries/qingjiao", &en)
	if en.Rank != 8 || len(en.History) != 2 || en.History[0].Rank != 9 || en.History[1].Rank != 8 || len(en.Scores) != 4 {
		t.Errorf("qingjiao: %+v", en)
	}
	for _, s := range en.Scores {
		if len(s.Evidence) == 0 || s.Evidence[0].Excerpt == "" || s.Evidence[0].SourceName == "" {
			t.Errorf("score %s without evidence", s.Criterion)
		}
	}
}
