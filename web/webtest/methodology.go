package webtest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// NewRanking is the slug LaptopMethodology's tests define.
const NewRanking = "laptops"

// LaptopMethodology is a small valid methodology for a new ranking.
func LaptopMethodology() events.Methodology {
	return events.Methodology{
		Title:       events.Text{Zh: "笔记本", En: "Laptops"},
		Description: events.Text{Zh: "便携电脑", En: "Portable computers"},
		Categories:  []events.Category{{Slug: "ultra", Name: events.Text{Zh: "轻薄", En: "Ultralight"}}},
		Criteria: []events.Criterion{
			{Slug: "price", Name: events.Text{Zh: "价格", En: "Price"}, Weight: 60},
			{Slug: "battery", Name: events.Text{Zh: "续航", En: "Battery"}, Weight: 40},
		},
		Attributes: []events.AttributeDef{{Key: "os", Name: events.Text{Zh: "系统", En: "OS"},
			Values: []events.AttributeValue{{Value: "linux", Label: events.Text{Zh: "Linux", En: "Linux"}}}}},
		Scenarios: []events.Scenario{{Slug: "travel", Name: events.Text{Zh: "出差", En: "Travel"},
			Weights: map[string]int{"price": 20, "battery": 80}}},
		Filters: []events.Filter{{Key: "os", Question: events.Text{Zh: "系统？", En: "Which OS?"},
			Options: []events.FilterOption{{Value: "linux", Label: events.Text{Zh: "Linux", En: "Linux"},
				Requires: []events.Requirement{{Attribute: "os", AnyOf: []string{"linux"}}}}}}},
		Quorum:  domain.DefaultQuorum,
		License: "CC-BY-4.0",
	}
}

// APIJSON sends v as JSON with method and decodes a 2xx answer into out
// (nil: none); it fails unless the status is want.
func APIJSON(t *testing.T, c *Client, method, target string, v any, want int, out any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	res, body := c.Do(method, target, bytes.NewReader(b), http.Header{"Content-Type": {"application/json"}})
	if res.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d; body %.500s", method, target, res.StatusCode, want, body)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(body), out); err != nil {
			t.Fatalf("%s %s: %v", method, target, err)
		}
	}
	return body
}
