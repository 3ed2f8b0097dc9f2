package site

import (
	"strings"
	"testing"
)

func TestWithBanner(t *testing.T) {
	const b = "<div>B</div>"
	for _, tc := range []struct{ page, want string }{
		{`<!DOCTYPE html><html><head><title>T</title></head><BODY onload="x()"><p>hi</p></BODY></html>`,
			`<!DOCTYPE html><html><head><title>T</title></head><BODY onload="x()">` + b + `<p>hi</p></BODY></html>`},
		{`<html><head><title>a > b</title><meta charset="gbk"></head><p>hi</p>`,
			`<html><head><title>a > b</title><meta charset="gbk"></head>` + b + `<p>hi</p>`},
		{`<body data-x="<body>">x`, `<body data-x="<body>">` + b + `x`},
		{`just text`, b + `just text`},
		{``, b},
	} {
		if got := string(withBanner([]byte(tc.page), b)); got != tc.want {
			t.Errorf("withBanner(%q)\n got %q\nwant %q", tc.page, got, tc.want)
		}
	}
}

func TestBannerIsASCII(t *testing.T) {
	got := bannerHTML("zh", Capture{URL: `https://example.org/?q="<x>"&é`})
	for _, r := range got {
		if r >= 0x80 {
			t.Fatalf("not ASCII: %s", got)
		}
	}
	if strings.Contains(got, `"<x>"`) {
		t.Errorf("URL not escaped: %s", got)
	}
}
