package demo_test

import (
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain/demo"
)

// TestVendorClaims: exactly the claims the article attributes to the
// platform itself ("自身…", "官方资料") are vendor claims; the rest are the
// article's own report.
func TestVendorClaims(t *testing.T) {
	var vendor []string
	for _, e := range demo.File().Entries {
		for _, ev := range e.Evidence {
			own := strings.Contains(ev.Claim.Zh, "自身") || strings.Contains(ev.Claim.Zh, "据官方资料")
			switch ev.Tier {
			case "vendor":
				vendor = append(vendor, e.Slug+"/"+ev.Key)
				if !own {
					t.Errorf("%s/%s is a vendor claim, but its claim %q does not say so", e.Slug, ev.Key, ev.Claim)
				}
			case "third_party":
				if own {
					t.Errorf("%s/%s relays the platform's own material but is %q", e.Slug, ev.Key, ev.Tier)
				}
			default:
				t.Errorf("%s/%s: tier %q", e.Slug, ev.Key, ev.Tier)
			}
		}
	}
	if len(vendor) != 3 {
		t.Errorf("vendor claims %v, want the three the article attributes to the platforms", vendor)
	}
}
