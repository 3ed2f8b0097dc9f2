package mail

import (
	"maps"
	"testing"

	"github.com/crossrank/crossrank/web/notify"
)

// A mail's one-click unsubscribe turns off exactly the kind the mail was
// (every kind that went to it, for a digest) and leaves every other choice
// as the user wrote it, named or not.
func TestUnsubscribeTurnsOffOnlyItsKind(t *testing.T) {
	t.Parallel()
	e := start(t, 0, nil)
	secret, err := e.svc.Book.secret(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Choices as the API takes them: some kinds not named.
	written := map[string]notify.Mode{"review_requested": notify.ModeInstant, "source_changed": notify.ModeDigest, notify.Other: notify.ModeInstant}
	for _, c := range []struct {
		user, kind string
		want       map[string]notify.Mode
	}{
		{"reviewer1", "review_requested", map[string]notify.Mode{"review_requested": notify.ModeNone, "source_changed": notify.ModeDigest, notify.Other: notify.ModeInstant}},
		{"reviewer2", "vendor_changed", map[string]notify.Mode{"review_requested": notify.ModeInstant, "source_changed": notify.ModeDigest, notify.Other: notify.ModeNone}},
		// veto, schedule_failed and review_overdue go to the digest as
		// they are not named.
		{"editor", notify.DigestKind, map[string]notify.Mode{"review_requested": notify.ModeInstant, "source_changed": notify.ModeNone, notify.Other: notify.ModeInstant,
			"veto": notify.ModeNone, "schedule_failed": notify.ModeNone, "review_overdue": notify.ModeNone}},
	} {
		prefs := notify.Prefs{Kinds: maps.Clone(written), DigestHour: 7, TimeZone: "Asia/Shanghai", Lang: "zh"}
		if err := e.svc.SetPrefs(e.ctx, c.user, prefs); err != nil {
			t.Fatal(err)
		}
		user, kind, err := e.svc.Unsubscribe(e.ctx, unsubscribeToken(secret, c.user, c.kind))
		if err != nil || user != c.user || kind != c.kind {
			t.Fatalf("unsubscribe %s %s: %s %s %v", c.user, c.kind, user, kind, err)
		}
		acct, err := e.svc.Account(e.ctx, c.user)
		if err != nil {
			t.Fatal(err)
		}
		if got := acct.Prefs.Kinds; !maps.Equal(got, c.want) {
			t.Errorf("%s unsubscribed from %s: kinds %v, want %v", c.user, c.kind, got, c.want)
		}
		if p := acct.Prefs; p.DigestHour != 7 || p.TimeZone != "Asia/Shanghai" || p.Lang != "zh" {
			t.Errorf("%s unsubscribed from %s: prefs %+v", c.user, c.kind, p)
		}
	}
}
