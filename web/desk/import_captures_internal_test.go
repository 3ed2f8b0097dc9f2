package desk

import (
	"testing"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

func TestImportCapturesWords(t *testing.T) {
	t.Parallel()
	c := projections.CaptureProgress{Sources: 30000, Captured: 1785, Failed: 412}
	for _, tc := range []struct{ lang, summary, waiting string }{
		{i18n.En, "1,785 of 30,000 sources captured, 412 failed", "27,803 wait for their first attempt or a retry; this page updates itself."},
		{i18n.Zh, "已存档 30,000 个来源中的 1,785 个，412 个失败", "27,803 个来源正在等待首次抓取或重试；本页会自动刷新。"},
	} {
		v := importCapturesOf(ui.Page{Lang: tc.lang}, c, 0)
		if v == nil || v.Summary != tc.summary || v.Waiting != tc.waiting || v.Percent != 7 {
			t.Errorf("%s: %+v, want %q, %q, 7%%", tc.lang, v, tc.summary, tc.waiting)
		}
	}
	if v := importCapturesOf(ui.Page{Lang: i18n.En}, projections.CaptureProgress{}, 0); v != nil {
		t.Errorf("a ranking citing no page: %+v, want nothing shown", v)
	}
	if v := importCapturesOf(ui.Page{Lang: i18n.En}, projections.CaptureProgress{Sources: 3, Captured: 2, Failed: 1}, 0); v == nil || v.Waiting != "" {
		t.Errorf("every source settled: %+v, want no waiting line (and no refresh)", v)
	}
	for _, tc := range []struct {
		lang     string
		retrying int
		want     string
	}{
		{i18n.En, 412, "412 sources on the desk are failing now (all rankings); each is tried again later, with a longer wait each time, until the worker gives up."},
		{i18n.En, 1, "1 source on the desk is failing now (all rankings); it is tried again later, with a longer wait each time, until the worker gives up."},
		{i18n.Zh, 27803, "整个编辑台目前有 27,803 个来源抓取失败（所有榜单合计）；每个都会稍后重试，每次等待更久，直到达到次数上限后放弃。"},
		{i18n.En, 0, ""},
	} {
		if v := importCapturesOf(ui.Page{Lang: tc.lang}, c, tc.retrying); v.Retrying != tc.want {
			t.Errorf("%s, %d failing now: %q, want %q", tc.lang, tc.retrying, v.Retrying, tc.want)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 30000: "30,000", 1234567: "1,234,567", -4200: "-4,200"} {
		if got := grouped(n); got != want {
			t.Errorf("grouped(%d) = %q, want %q", n, got, want)
		}
	}
}
