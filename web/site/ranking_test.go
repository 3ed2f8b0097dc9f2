package site_test

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/web/webtest"
)

// The demo's edition 1 holds every score but three held back (Huawei
// Cloud's and Qingjiao's onboarding, Matpool's cluster score). The totals
// below are computed by hand from domain/demo/content.go: Σ weight·score
// over delivery, GPUs, cluster, integration, elasticity, graphics,
// onboarding, data access.

func TestPublicRankingOrders(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	tests := []struct {
		name, query string
		order       []string
		totals      []string // the shown totals, total/100 rounded to one decimal
	}{
		{"overall", "", // weights 15 15 15 15 10 10 10 10
			[]string{"zhixingyun", "qingcloud", "aliyun", "volcengine", "tencent-cloud", "huawei-cloud", "ppio", "matpool", "qingjiao"},
			// 640, 540, 500, 385, 355, 350, 295, 220, 190
			[]string{"6.4", "5.4", "5.0", "3.9", "3.6", "3.5", "3.0", "2.2", "1.9"}},
		{"training", "?scenario=training", // weights 15 20 30 5 5 0 5 20
			// zhixingyun 150+180+150+20+35+35+160=730; qingcloud 120+140+270+30+25+140=725;
			// volcengine 105+100+270+35=510; aliyun 75+100+50+30+40+120=415; ppio 135+50+120=305;
			// huawei 75+120+45=240; tencent 75+100+45=220; matpool 60+30+50=140; qingjiao 75+30=105
			[]string{"zhixingyun", "qingcloud", "volcengine", "aliyun", "ppio", "huawei-cloud", "tencent-cloud", "matpool", "qingjiao"},
			[]string{"7.3", "7.3", "5.1", "4.2", "3.1", "2.4", "2.2", "1.4", "1.1"}},
		{"graphics", "?scenario=graphics", // weights 10 10 0 10 5 50 10 5
			// qingjiao 50+500=550; tencent 50+50+90+350=540; huawei 50+60+90+250=450;
			// zhixingyun 100+90+40+35+70+40=375; aliyun 50+50+100+30+80+30=340
			[]string{"qingjiao", "tencent-cloud", "huawei-cloud", "zhixingyun", "aliyun"},
			[]string{"5.5", "5.4", "4.5", "3.8", "3.4"}},
		{"one category", "?category=ai-cloud", // overall weights, AI clouds only
			[]string{"qingcloud", "volcengine", "ppio"}, []string{"5.4", "3.9", "3.0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := e.Page("/r/gpu-cloud"+tc.query, "Accept-Language", "en")
			got := webtest.Testids(doc, "ranking-row", "data-entry")
			if !slices.Equal(got[:len(tc.order)], tc.order) {
				t.Errorf("order\n got %v\nwant %v", got, tc.order)
			}
			var totals []string
			doc.Find(`[data-testid="ranking-row"] [data-testid="total"]`).Each(func(_ int, s *goquery.Selection) {
				totals = append(totals, s.Text())
			})
			if !slices.Equal(totals[:len(tc.totals)], tc.totals) {
				t.Errorf("totals %v, want %v", totals, tc.totals)
			}
			if ranks := webtest.Testids(doc, "ranking-row", "data-rank"); ranks[0] != "1" || ranks[len(ranks)-1] != strconv.Itoa(len(ranks)) {
				t.Errorf("places %v", ranks)
			}
		})
	}
}

func TestPublicNeedsFilters(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	tests := []struct {
		name, query string
		kept        []string
		hidden      map[string]string // entry → a reason it must show
	}{
		{"interruptible keeps only the Spot platform", "?scenario=training&interruptible=yes",
			[]string{"ppio"}, map[string]string{"zhixingyun": "The article mentions no Spot (preemptible) capacity"}},
		{"training workload", "?workload=training",
			[]string{"zhixingyun", "qingcloud", "aliyun", "volcengine", "tencent-cloud", "huawei-cloud", "matpool"},
			map[string]string{"ppio": "The article does not mention training on it", "qingjiao": "The article does not mention training on it"}},
		{"bare metal and data overseas", "?system-access=whole-machine&data-location=overseas",
			[]string{"ppio"}, map[string]string{"qingcloud": "The article mentions no overseas regions", "aliyun": "Does not offer bare metal"}},
		{"multi-node for months", "?scale=multi-node&duration=months",
			[]string{"zhixingyun", "qingcloud"}, map[string]string{"volcengine": "The article mentions no whole-machine lease or long-term capacity"}},
		{"unknown answers are ignored", "?interruptible=maybe&nonsense=1",
			[]string{"zhixingyun", "qingcloud", "aliyun", "volcengine", "tencent-cloud", "huawei-cloud", "ppio", "matpool", "qingjiao"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := e.Page("/r/gpu-cloud"+tc.query, "Accept-Language", "en")
			if got := webtest.Testids(doc, "ranking-row", "data-entry"); !slices.Equal(got, tc.kept) {
				t.Errorf("kept %v, want %v", got, tc.kept)
			}
			hidden := map[string]string{}
			doc.Find(`[data-testid="excluded-row"]`).Each(func(_ int, s *goquery.Selection) {
				slug, _ := s.Attr("data-entry")
				hidden[slug] = s.Find(`[data-testid="reason"]`).Text()
			})
			if len(hidden)+len(tc.kept) != 9 {
				t.Errorf("%d hidden + %d kept, want 9 entries", len(hidden), len(tc.kept))
			}
			for slug, reason := range tc.hidden {
				if !strings.Contains(hidden[slug], reason) {
					t.Errorf("%s hidden with %q, want %q", slug, hidden[slug], reason)
				}
			}
			// The form keeps the answers, so the view can be refined and shared.
			if tc.kept[0] == "ppio" && len(tc.kept) == 1 {
				form := doc.Find(`[data-testid="needs-form"]`)
				if form.AttrOr("method", "") != "get" || form.AttrOr("action", "") != "/r/gpu-cloud" {
					t.Errorf("needs form is not a GET form to the ranking")
				}
			}
		})
	}
	// Chinese readers get the reasons in Chinese.
	doc := e.Page("/r/gpu-cloud?interruptible=yes", "Accept-Language", "zh-CN")
	if got := doc.Find(`[data-testid="excluded-row"][data-entry="aliyun"] [data-testid="reason"]`).Text(); got != "文中未提及 Spot 抢占式资源" {
		t.Errorf("zh reason %q", got)
	}
	if doc.Find(`[data-testid="needs-form"] select[name="interruptible"] option[selected]`).AttrOr("value", "") != "yes" {
		t.Errorf("the form does not keep the chosen answer")
	}
}

func TestPublicRankingMovesAndLanguages(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	doc := e.Page("/", "Accept-Language", "zh-CN,zh;q=0.9")
	if got := doc.Find(`[data-testid="ranking-title"]`).Text(); got != "GPU 算力租赁平台观察" {
		t.Errorf("zh title %q", got)
	}
	if got := webtest.Testids(doc, "move", "data-kind"); len(got) != 9 || slices.ContainsFunc(got, func(k string) bool { return k != "new" }) {
		t.Errorf("edition 1 moves %v, want all new", got)
	}
	// Qingjiao's onboarding score (6) lifts it from 190 to 250, past Matpool (220).
	if n := e.Publish("demo-qingjiao-2"); n != 2 {
		t.Fatalf("published edition %d", n)
	}
	doc = e.Page("/r/gpu-cloud", "Accept-Language", "en")
	moves := map[string]string{}
	doc.Find(`[data-testid="ranking-row"]`).Each(func(_ int, s *goquery.Selection) {
		moves[s.AttrOr("data-entry", "")] = strings.TrimSpace(s.Find(`[data-testid="move"] [aria-hidden]`).Text())
	})
	if moves["qingjiao"] != "▲1" || moves["matpool"] != "▼1" || moves["zhixingyun"] != "–" {
		t.Errorf("moves after edition 2: %v", moves)
	}
	if got := doc.Find(`[data-testid="edition-number"]`).Text(); got != "Edition 2" {
		t.Errorf("edition label %q", got)
	}
	// The scenario picker lists the four scenarios and keeps the needs.
	doc = e.Page("/r/gpu-cloud?interruptible=yes", "Accept-Language", "zh-CN")
	var labels []string
	doc.Find(`[data-testid="scenario-picker"] a`).Each(func(_ int, s *goquery.Selection) { labels = append(labels, s.Text()) })
	if !slices.Equal(labels, []string{"综合", "训练", "推理", "科学计算", "图形应用"}) {
		t.Errorf("scenario picker %v", labels)
	}
	if href := doc.Find(`[data-testid="scenario-training"]`).AttrOr("href", ""); href != "/r/gpu-cloud?interruptible=yes&scenario=training" {
		t.Errorf("scenario link %q", href)
	}
	if res, _ := e.Get("/r/no-such-ranking"); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown ranking: %d", res.StatusCode)
	}
}
