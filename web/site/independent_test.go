package site_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/webtest"
)

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// independentOf returns the rows, totals and view hash of a ranking page.
func independentOf(doc *goquery.Document) (order, totals []string, hash string) {
	order = webtest.Testids(doc, "ranking-row", "data-entry")
	doc.Find(`[data-testid="ranking-row"] [data-testid="total"]`).Each(func(_ int, s *goquery.Selection) {
		totals = append(totals, s.Text())
	})
	return order, totals, strings.TrimSpace(doc.Find(`[data-testid="independent-hash"]`).Text())
}

// TestPublicIndependentView: the reader switches the ranking to
// independent evidence only. In the demo only qingcloud's GPU score
// (7 × 15) rests on a vendor claim alone ("据官方资料…"): it drops from
// 540 to 435 and falls behind aliyun; zhixingyun's GPU score keeps an
// article report beside its own material. The view shows its hash, which
// follows the evidence: publishing a third-party source for qingcloud's
// GPU score brings the published order back and changes the hash.
func TestPublicIndependentView(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	overall := e.Page("/r/gpu-cloud", "Accept-Language", "en")
	if doc := overall.Find(`[data-testid="independent-hash"]`); doc.Length() != 0 {
		t.Error("the published view shows an independent hash")
	}
	href, _ := overall.Find(`[data-testid="basis-independent"]`).Attr("href")
	if href != "/r/gpu-cloud?evidence=independent" {
		t.Fatalf("independent tab links to %q", href)
	}

	doc := e.Page(href, "Accept-Language", "en")
	order, totals, hash := independentOf(doc)
	want := []string{"zhixingyun", "aliyun", "qingcloud", "volcengine", "tencent-cloud", "huawei-cloud", "ppio", "matpool", "qingjiao"}
	if !slices.Equal(order, want) {
		t.Errorf("order\n got %v\nwant %v", order, want)
	}
	if want := []string{"6.4", "5.0", "4.4", "3.9", "3.6", "3.5", "3.0", "2.2", "1.9"}; !slices.Equal(totals, want) {
		t.Errorf("totals %v, want %v", totals, want)
	}
	if !sha256Hex.MatchString(hash) {
		t.Fatalf("view hash %q", hash)
	}
	if cur, _ := doc.Find(`[data-testid="basis-independent"]`).Attr("aria-current"); cur != "page" {
		t.Error("the independent tab is not marked current")
	}
	if got := doc.Find(`[data-testid="move"][data-kind="up"], [data-testid="move"][data-kind="down"]`).Length(); got != 0 {
		t.Errorf("%d rank moves shown on a view no edition published", got)
	}
	// The other pickers keep the choice; the needs form carries it.
	if h, _ := doc.Find(`[data-testid="scenario-training"]`).Attr("href"); !strings.Contains(h, "evidence=independent") {
		t.Errorf("scenario tab %q drops the independent view", h)
	}
	if v, _ := doc.Find(`[data-testid="needs-form"] input[name="evidence"]`).Attr("value"); v != "independent" {
		t.Errorf("needs form carries evidence=%q", v)
	}
	// The same view in the other language has the same hash; the published
	// edition's snapshot hash is another.
	if _, _, zh := independentOf(e.Page(href, "Accept-Language", "zh-CN")); zh != hash {
		t.Errorf("hash in Chinese %s, in English %s", zh, hash)
	}
	res, body := e.Get("/api/v1/rankings/gpu-cloud/editions/1")
	var ed struct {
		SnapshotHash string `json:"snapshot_hash"`
	}
	if res.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &ed) != nil || ed.SnapshotHash == "" {
		t.Fatalf("edition 1: %d %.200s", res.StatusCode, body)
	}
	if ed.SnapshotHash == hash {
		t.Error("the independent view has the published edition's hash")
	}

	id := e.CrossValidate("qingcloud", demo.CritGPUs, 7, domain.AddEvidence{Claim: events.Text{En: "Measured: H100 and A100 nodes rentable"},
		SourceName: "our own test rental", Excerpt: "H100 ×8 node booked", ObservedOn: "2026-03-01", Tier: domain.TierOwn})
	e.Publish(id)
	order, totals, after := independentOf(e.Page(href, "Accept-Language", "en"))
	if want := []string{"zhixingyun", "qingcloud", "aliyun"}; !slices.Equal(order[:3], want) || totals[1] != "5.4" {
		t.Errorf("after an own measurement: order %v totals %v", order[:3], totals[:3])
	}
	if after == hash || !sha256Hex.MatchString(after) {
		t.Errorf("hash %s after the new evidence, %s before", after, hash)
	}
}

// TestPublicEvidenceTiers: entry pages and the API say where each claim
// comes from.
func TestPublicEvidenceTiers(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	doc := e.Page("/r/gpu-cloud/e/zhixingyun", "Accept-Language", "en")
	tiers := map[string]int{}
	doc.Find(`[data-testid="evidence-tier"]`).Each(func(_ int, s *goquery.Selection) {
		v, _ := s.Attr("data-tier")
		tiers[v]++
		if v == "vendor" && strings.TrimSpace(s.Text()) != "vendor's own claim" {
			t.Errorf("vendor badge reads %q", s.Text())
		}
	})
	if tiers["vendor"] == 0 || tiers["third_party"] == 0 || tiers["unknown"] != 0 {
		t.Errorf("tier badges %v, want vendor and third_party ones", tiers)
	}
	if zh := e.Page("/r/gpu-cloud/e/zhixingyun", "Accept-Language", "zh-CN"); !strings.Contains(zh.Find(`[data-tier="vendor"]`).First().Text(), "厂商自述") {
		t.Error("no Chinese vendor badge")
	}

	res, body := e.Get("/api/v1/rankings/gpu-cloud/entries/zhixingyun")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("API entry: %d", res.StatusCode)
	}
	var entry struct {
		Scores []struct {
			Criterion string `json:"criterion"`
			Evidence  []struct {
				Claim events.Text `json:"claim"`
				Tier  string      `json:"tier"`
			} `json:"evidence"`
		} `json:"scores"`
	}
	if err := json.Unmarshal([]byte(body), &entry); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range entry.Scores {
		if s.Criterion == demo.CritGPUs {
			for _, ev := range s.Evidence {
				got[ev.Claim.Zh] = ev.Tier
			}
		}
	}
	if got["据智星云自身资料，资源覆盖从 H100 到 RTX 3090 的 11 种 NVIDIA GPU 及昇腾 910B。"] != "vendor" ||
		got["具体型号、节点和数量以实时库存为准。"] != "third_party" {
		t.Errorf("tiers of the GPU score's evidence: %v", got)
	}
}

// TestAPIIndependentView: the JSON API serves the same view with the same
// hash as the page, and refuses an unknown basis.
func TestAPIIndependentView(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	_, _, pageHash := independentOf(e.Page("/r/gpu-cloud?evidence=independent", "Accept-Language", "en"))
	var got struct {
		Evidence        string `json:"evidence"`
		IndependentHash string `json:"independent_hash"`
		Entries         []struct {
			Slug   string         `json:"slug"`
			Total  int            `json:"total"`
			Scores map[string]int `json:"scores"`
			Move   *int           `json:"move"`
		} `json:"entries"`
	}
	res, body := e.Get("/api/v1/rankings/gpu-cloud?evidence=independent")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%d %.300s", res.StatusCode, body)
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if got.Evidence != "independent" || got.IndependentHash != pageHash || len(got.Entries) != 9 {
		t.Fatalf("evidence %q hash %q (page %q), %d entries", got.Evidence, got.IndependentHash, pageHash, len(got.Entries))
	}
	if q := got.Entries[2]; q.Slug != "qingcloud" || q.Total != 435 || q.Move != nil {
		t.Errorf("third entry %+v, want qingcloud at 435 with no move", q)
	}
	if _, ok := got.Entries[2].Scores[demo.CritGPUs]; ok {
		t.Error("the vendor-only GPU score is listed")
	}
	res, body = e.Get("/api/v1/rankings/gpu-cloud")
	got.Evidence, got.IndependentHash = "", ""
	if err := json.Unmarshal([]byte(body), &got); err != nil || res.StatusCode != http.StatusOK {
		t.Fatal(res.StatusCode, err)
	}
	if got.Evidence != "all" || got.IndependentHash != "" {
		t.Errorf("published view: evidence %q hash %q", got.Evidence, got.IndependentHash)
	}
	if res, _ := e.Get("/api/v1/rankings/gpu-cloud?evidence=vendor"); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("unknown basis: %d, want 422", res.StatusCode)
	}
}
