package api_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api"
)

// TestReportListAtSize: 10,000 reports, appended to the stream in bulk as
// the intake would write them, page through the API and the desk in SQL:
// every page holds its share, newest first, the filters count right, and
// a page past the last is 404.
func TestReportListAtSize(t *testing.T) {
	if testing.Short() {
		t.Skip("full run only: lists 10,000 reports; go test -short skips it")
	}
	e := newReportEnv(t)
	const n = 10_000
	now := time.Now()
	via := handler.Intake().Via.String()
	var evs []events.Event
	for i := range n {
		c := domain.OpenReport{Ranking: demo.RankingSlug, Entry: "ppio", Kind: domain.ReportKinds[i%4], Text: "report " + strconv.Itoa(i)}
		id := domain.ReportID(c, now)
		ev, err := events.New(events.NewID(now), now, domain.SystemActor, id, &events.ReportOpened{Ranking: c.Ranking,
			Entry: c.Entry, Kind: c.Kind, Text: c.Text})
		if err != nil {
			t.Fatal(err)
		}
		ev.AuthVia = via
		evs = append(evs, ev)
		if i%10 == 0 { // every tenth declined
			d, err := events.New(events.NewID(now), now, "editor", id, &events.ReportDeclined{Reason: "no"})
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, d)
		}
	}
	for len(evs) > 0 {
		k := min(len(evs), 1000)
		if _, err := e.Store.Append(e.Ctx, nil, evs[:k]...); err != nil {
			t.Fatal(err)
		}
		evs = evs[k:]
	}
	e.CaughtUp()
	editor := e.Bearer("editor")

	var first api.Reports
	res, body := e.Get("/api/v1/reports?ranking="+demo.RankingSlug, "Authorization", editor)
	if err := json.Unmarshal([]byte(body), &first); err != nil || res.StatusCode != 200 {
		t.Fatalf("first page: %d %.200s", res.StatusCode, body)
	}
	if first.Total != n || first.Pages != n/api.ReportPerPage || len(first.Reports) != api.ReportPerPage {
		t.Fatalf("first page: total %d, pages %d, rows %d", first.Total, first.Pages, len(first.Reports))
	}
	if first.Reports[0].Text != "report "+strconv.Itoa(n-1) {
		t.Errorf("newest first: got %q", first.Reports[0].Text)
	}
	var last api.Reports
	res, body = e.Get("/api/v1/reports?ranking="+demo.RankingSlug+"&page="+strconv.Itoa(first.Pages), "Authorization", editor)
	if err := json.Unmarshal([]byte(body), &last); err != nil || res.StatusCode != 200 || len(last.Reports) != api.ReportPerPage ||
		last.Reports[len(last.Reports)-1].Text != "report 0" {
		t.Fatalf("last page: %d %.200s", res.StatusCode, body)
	}
	var declined api.Reports
	res, body = e.Get("/api/v1/reports?status=declined&page=2", "Authorization", editor)
	if err := json.Unmarshal([]byte(body), &declined); err != nil || res.StatusCode != 200 || declined.Total != n/10 {
		t.Fatalf("declined: %d %.200s", res.StatusCode, body)
	}
	if res, _ := e.Get("/api/v1/reports?page="+strconv.Itoa(first.Pages+1), "Authorization", editor); res.StatusCode != http.StatusNotFound {
		t.Errorf("past the last page: %d", res.StatusCode)
	}
	res, body = e.Get("/desk/reports?status=open&page=50", "Authorization", editor)
	if res.StatusCode != 200 || strings.Count(body, `data-testid="report"`) != api.ReportPerPage {
		t.Fatalf("desk page 50: %d, %d rows", res.StatusCode, strings.Count(body, `data-testid="report"`))
	}
	// The corrections log pages the declined ones.
	res, body = e.Get("/api/v1/rankings/" + demo.RankingSlug + "/corrections?page=10")
	if res.StatusCode != 200 || !strings.Contains(body, `"total":1000`) {
		t.Fatalf("corrections page 10: %d %.200s", res.StatusCode, body)
	}
}
