package desk

import (
	"net/url"
	"testing"
	"time"

	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
)

// TestScheduleFormMoment: the form's wall-clock time in the chosen zone
// becomes the RFC 3339 moment the schedule command takes; a zone not
// offered or a malformed time is a field error.
func TestScheduleFormMoment(t *testing.T) {
	for _, tc := range []struct {
		local, zone string
		want        string // "" : refused
		field       string
	}{
		{local: "2026-12-01T09:00", zone: "Asia/Shanghai", want: "2026-12-01T09:00:00+08:00"},
		{local: "2026-12-01T09:00:05", zone: "UTC", want: "2026-12-01T09:00:05Z"},
		{local: "2026-12-01T09:00", zone: "Europe/Paris", field: "zone"},
		{local: "tomorrow", zone: "UTC", field: "at"},
	} {
		f, err := httpx.CheckForm(url.Values{"at_local": {tc.local}, "zone": {tc.zone}, "ranking": {"gpu"}})
		if err != nil {
			t.Fatal(err)
		}
		var in command.ScheduleInput
		scheduleAction.Form(f, &in)
		if tc.want != "" {
			if f.Err() != nil || in.At != tc.want {
				t.Errorf("%s in %s: at %q (%v), want %q", tc.local, tc.zone, in.At, f.Err(), tc.want)
			}
			continue
		}
		if got := httpx.FieldProblems("en", f.Err()); len(got) != 1 || got[0].Field != tc.field {
			t.Errorf("%s in %s: problems %+v, want one on %s", tc.local, tc.zone, got, tc.field)
		}
	}
}

// TestMomentText: a scheduled moment reads in the reader's language at the
// publisher's own offset.
func TestMomentText(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.FixedZone("CST", 8*3600)).Format(time.RFC3339)
	for lang, want := range map[string]string{"en": "1 Dec 2026, 09:00 (UTC+08:00)", "zh": "2026年12月1日 09:00（UTC+08:00）"} {
		if got := momentText(lang, at); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}

// TestScheduleFailureWords: the inbox words why a scheduled edition did
// not fire from the failure's code, in each language.
func TestScheduleFailureWords(t *testing.T) {
	for _, tc := range []struct{ lang, code, want string }{
		{lang: "en", code: "edition.preview_changed", want: "why: The edition changed since your preview; check the new preview."},
		{lang: "zh", code: "edition.preview_changed", want: "原因：预览之后版本内容有变化，请查看新的预览。"},
		{lang: "en", code: "no.such_code", want: "why: no.such_code"},
	} {
		if got := scheduleFailure(tc.lang, tc.code); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.lang, tc.code, got, tc.want)
		}
	}
}
