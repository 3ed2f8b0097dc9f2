package desk

import (
	"testing"

	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/imports"
	"github.com/crossrank/crossrank/web/ui"
)

// TestImportWordsCountInPlurals: the import page counts one thing in the
// singular ("Checked 0 of 1 entry", "Opened 1 proposal for review", "… and
// 1 more score change", "1 of 1 source captured", "1 waits"), as the
// catalogs' plural forms say, and many in the plural.
func TestImportWordsCountInPlurals(t *testing.T) {
	t.Parallel()
	en := ui.Page{Lang: i18n.En}
	for _, tc := range []struct {
		job  imports.Job
		want func(importJobView) string
		text string
	}{
		{imports.Job{State: imports.Checking, Stage: rankfile.StageCheck, Total: 1}, func(v importJobView) string { return v.Progress }, "Checked 0 of 1 entry"},
		{imports.Job{State: imports.Checking, Stage: rankfile.StageCheck, Done: 2, Total: 3}, func(v importJobView) string { return v.Progress }, "Checked 2 of 3 entries"},
		{imports.Job{State: imports.Opening, Stage: rankfile.StageOpen, Total: 1}, func(v importJobView) string { return v.Progress }, "Opened 0 of 1 entry proposal"},
		{imports.Job{State: imports.Done, Opened: 1}, func(v importJobView) string { return v.Opened[:len("Opened 1 proposal for")] }, "Opened 1 proposal for"},
		{imports.Job{State: imports.Done, Opened: 2}, func(v importJobView) string { return v.Opened[:len("Opened 2 proposals for")] }, "Opened 2 proposals for"},
		{imports.Job{State: imports.Checked, Summary: rankfile.Summary{ChangedScores: 1}}, func(v importJobView) string { return v.More }, "… and 1 more score change."},
		{imports.Job{State: imports.Checked, Summary: rankfile.Summary{ChangedScores: 2}}, func(v importJobView) string { return v.More }, "… and 2 more score changes."},
	} {
		if got := tc.want(importJobViewOf(en, tc.job)); got != tc.text {
			t.Errorf("%+v: %q, want %q", tc.job, got, tc.text)
		}
	}
	v := importCapturesOf(en, projections.CaptureProgress{Sources: 1}, 0)
	if v.Summary != "0 of 1 source captured, 0 failed" || v.Waiting != "1 waits for its first attempt or a retry; this page updates itself." {
		t.Errorf("one source: %q, %q", v.Summary, v.Waiting)
	}
	if v := importJobViewOf(ui.Page{Lang: i18n.Zh}, imports.Job{State: imports.Done, Opened: 1}); v.Opened[:len("已创建 1 个")] != "已创建 1 个" {
		t.Errorf("zh: %q", v.Opened)
	}
}
