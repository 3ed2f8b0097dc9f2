package site_test

import (
	"encoding/xml"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// atomCheck is the part of RFC 4287 the test reads.
type atomCheck struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string   `xml:"id"`
	Title   string   `xml:"title"`
	Updated string   `xml:"updated"`
	Entries []struct {
		ID      string `xml:"id"`
		Title   string `xml:"title"`
		Updated string `xml:"updated"`
		Link    struct {
			Href string `xml:"href,attr"`
		} `xml:"link"`
		Summary string `xml:"summary"`
	} `xml:"entry"`
}

func TestPublicAtomFeed(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	read := func(target, lang string) atomCheck {
		t.Helper()
		res, body := e.Get(target, "Accept-Language", lang)
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/atom+xml") {
			t.Fatalf("GET %s: %d %s", target, res.StatusCode, res.Header.Get("Content-Type"))
		}
		var f atomCheck
		if err := xml.Unmarshal([]byte(body), &f); err != nil {
			t.Fatalf("%s does not parse as Atom: %v\n%s", target, err, body)
		}
		return f
	}
	f := read("/feed.atom", "en")
	if len(f.Entries) != 1 || f.Entries[0].ID != "urn:crossrank:edition:gpu-cloud:1" || f.Updated == "" {
		t.Fatalf("feed with edition 1: %+v", f)
	}
	e.Publish("demo-qingjiao-2")
	for _, target := range []string{"/feed.atom", "/r/gpu-cloud/feed.atom", "/feed.atom?ranking=gpu-cloud"} {
		f = read(target, "en")
		if len(f.Entries) != 2 {
			t.Fatalf("%s: %d entries, want one per edition (2)", target, len(f.Entries))
		}
		if f.Entries[0].ID != "urn:crossrank:edition:gpu-cloud:2" || f.Entries[1].ID != "urn:crossrank:edition:gpu-cloud:1" {
			t.Errorf("%s: ids %s, %s", target, f.Entries[0].ID, f.Entries[1].ID)
		}
		if f.Entries[0].Link.Href != "http://example.com/r/gpu-cloud/editions/2" {
			t.Errorf("%s: link %q", target, f.Entries[0].Link.Href)
		}
		if f.Updated != f.Entries[0].Updated {
			t.Errorf("%s: feed updated %s, newest entry %s", target, f.Updated, f.Entries[0].Updated)
		}
	}
	if zh := read("/r/gpu-cloud/feed.atom", "zh-CN"); !strings.Contains(zh.Entries[0].Title, "第 2 期") {
		t.Errorf("zh entry title %q", zh.Entries[0].Title)
	}
	// Edition 2 releases one proposal: its count takes the singular in
	// English; Chinese has one form. The edition's note, if any, comes
	// first.
	counts := regexp.MustCompile(`(^|— )(1 change|[02-9]\d* changes|1\d+ changes) from 1 proposal$`)
	if en := read("/r/gpu-cloud/feed.atom", "en").Entries[0].Summary; !counts.MatchString(en) {
		t.Errorf("en summary %q, want the counts in their plural forms", en)
	}
	if zh := read("/r/gpu-cloud/feed.atom", "zh-CN").Entries[0].Summary; !strings.HasSuffix(zh, "项修改，来自 1 条提案") {
		t.Errorf("zh summary %q", zh)
	}
	if res, _ := e.Get("/r/nope/feed.atom"); res.StatusCode != http.StatusNotFound {
		t.Errorf("feed of an unknown ranking: %d", res.StatusCode)
	}
}
