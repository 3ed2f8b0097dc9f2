package mail

import (
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/web/notify"
	"github.com/nats-io/nats.go/jetstream"
)

// An editor asks reviewer1 (English) and reviewer2 (Chinese) for a review:
// each gets one mail at once, in their language, plain text and HTML, with
// a link straight to the proposal and a one-click unsubscribe; the
// unsubscribe turns that kind off.
func TestMailReviewRequestedAtOnce(t *testing.T) {
	t.Parallel()
	e := start(t, 0, nil)
	e.confirm("reviewer1", "r1@example.org", "en")
	e.confirm("reviewer2", "r2@example.org", "zh")
	p := e.openProposals("reviewer1", 1)[0]
	e.request(p, "reviewer1", "reviewer2")

	en := e.relay.await(t, "r1@example.org", "asked you to review")
	h := en.Msg.Header
	if got := h.Get("From"); got != `"Crossrank" <desk@rank.example>` && got != "Crossrank <desk@rank.example>" {
		t.Errorf("From = %q", got)
	}
	if en.From != "desk@rank.example" || h.Get("To") != "<r1@example.org>" && h.Get("To") != "r1@example.org" {
		t.Errorf("envelope from %q, To %q", en.From, h.Get("To"))
	}
	if id := h.Get("Message-Id"); !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, "@rank.example>") || len(id) < 20 {
		t.Errorf("Message-ID = %q, want a unique id at the From domain", id)
	}
	if h.Get("Content-Language") != "en" || h.Get("Auto-Submitted") != "auto-generated" {
		t.Errorf("Content-Language %q, Auto-Submitted %q", h.Get("Content-Language"), h.Get("Auto-Submitted"))
	}
	unsub := h.Get("List-Unsubscribe")
	if !strings.HasPrefix(unsub, "<https://rank.example/mail/unsubscribe?token=") || !strings.HasSuffix(unsub, ">") {
		t.Errorf("List-Unsubscribe = %q", unsub)
	}
	if got := h.Get("List-Unsubscribe-Post"); got != "List-Unsubscribe=One-Click" {
		t.Errorf("List-Unsubscribe-Post = %q", got)
	}
	text, html := parts(t, en)
	link := "https://rank.example/desk/proposals/" + p
	contains(t, "English text", text, "editor asked you to review proposal "+p, link, strings.Trim(unsub, "<>"))
	contains(t, "English HTML", html, `<a href="`+link+`">`, `lang="en"`)

	zh := e.relay.await(t, "r2@example.org", p)
	if zh.Msg.Header.Get("Content-Language") != "zh-CN" {
		t.Errorf("Chinese mail: Content-Language %q", zh.Msg.Header.Get("Content-Language"))
	}
	text, html = parts(t, zh)
	contains(t, "Chinese text", text, "打开", link, "退订")
	contains(t, "Chinese HTML", html, `lang="zh-CN"`, link)

	// The delivery is visible to its user as sent.
	if ds := e.sentDeliveries("reviewer1", 1); ds[0].Kind != "review_requested" || ds[0].Mode != notify.ModeInstant {
		t.Errorf("reviewer1's deliveries = %+v", ds)
	}

	// One click turns review requests off for reviewer1.
	token := strings.TrimPrefix(strings.Trim(unsub, "<>"), "https://rank.example/mail/unsubscribe?token=")
	user, kind, err := e.svc.Unsubscribe(e.ctx, token)
	if err != nil || user != "reviewer1" || kind != "review_requested" {
		t.Fatalf("unsubscribe: %s %s %v", user, kind, err)
	}
	if acct, _ := e.svc.Account(e.ctx, "reviewer1"); acct.Prefs.ModeOf("review_requested") != notify.ModeNone {
		t.Errorf("after unsubscribing, review requests come %s", acct.Prefs.ModeOf("review_requested"))
	}
	if _, _, err := e.svc.Unsubscribe(e.ctx, token+"x"); !notify.IsBadToken(err) {
		t.Errorf("a forged token: %v", err)
	}
}

// Nothing goes to an address before its link is opened, nor to one whose
// user turned the kind off: a later mail to someone else shows the events
// before it were handled (one consumer takes them in order).
func TestMailNeedsConfirmation(t *testing.T) {
	t.Parallel()
	e := start(t, 0, nil)
	if err := e.svc.RequestAddress(e.ctx, "reviewer1", "r1@example.org", "en"); err != nil {
		t.Fatal(err)
	}
	e.relay.await(t, "r1@example.org", "Confirm")
	ps := e.openProposals("reviewer1", 2)
	e.request(ps[0], "reviewer1")
	e.confirm("reviewer2", "r2@example.org", "en")
	e.request(ps[1], "reviewer2")
	e.relay.await(t, "r2@example.org", ps[1])
	for _, m := range e.relay.all() {
		if m.To == "r1@example.org" && !strings.Contains(decodedSubject(m), "Confirm") {
			t.Errorf("mail to an unconfirmed address: %q", decodedSubject(m))
		}
	}
	if err := e.svc.ConfirmAddress(e.ctx, "reviewer1", "wrong-token"); !notify.IsBadToken(err) {
		t.Errorf("a wrong token confirms: %v", err)
	}
	if acct, _ := e.svc.Account(e.ctx, "reviewer1"); acct.Address != "" || acct.Pending != "r1@example.org" {
		t.Errorf("reviewer1: address %q, pending %q", acct.Address, acct.Pending)
	}
}

// A relay that refuses (451) twice and then accepts gets the mail on the
// third attempt; the user saw it failed in between.
func TestMailRetriedAfterRefusal(t *testing.T) {
	t.Parallel()
	e := start(t, 0, nil)
	e.confirm("reviewer1", "r1@example.org", "en")
	e.relay.mu.Lock()
	e.relay.refuse = 2
	e.relay.mu.Unlock()
	p := e.openProposals("reviewer1", 1)[0]
	e.request(p, "reviewer1")
	e.relay.await(t, "r1@example.org", p)
	if ds := e.sentDeliveries("reviewer1", 1); ds[0].Attempts != 3 {
		t.Errorf("deliveries = %+v, want one sent at the third attempt", ds)
	}
	if n := len(e.relay.all()); n != 2 { // the confirmation and this one
		t.Errorf("the relay accepted %d mails, want 2", n)
	}
}

// A relay that accepts a mail (250 to DATA) and then drops the connection
// at the next command has the mail: it is sent once, not again at every
// retry (a reviewer got the same review request four times).
func TestMailSentOnceWhenRelayDropsAfterAccepting(t *testing.T) {
	t.Parallel()
	e := start(t, 0, nil)
	e.confirm("reviewer1", "r1@example.org", "en")
	e.relay.mu.Lock()
	e.relay.drop = true
	e.relay.mu.Unlock()
	p := e.openProposals("reviewer1", 1)[0]
	e.request(p, "reviewer1")
	e.relay.await(t, "r1@example.org", p)
	if ds := e.sentDeliveries("reviewer1", 1); ds[0].Attempts != 1 {
		t.Errorf("deliveries = %+v, want one sent at the first attempt", ds)
	}
	// The worker retries a failure within 200 ms here: a second second
	// would have seen several.
	time.Sleep(time.Second)
	if n := len(e.relay.all()); n != 2 { // the confirmation and this one
		t.Errorf("the relay accepted %d mails, want 2: the review request once", n)
	}
}

// A digest user gets one digest at their digest moment, holding every item
// since, and nothing at once; the next digest is scheduled a day later.
func TestMailDigestOnceAtItsMoment(t *testing.T) {
	t.Parallel()
	// The mailer's clock stands three seconds before 08:00 in Shanghai
	// once the env is up.
	loc, _ := time.LoadLocation("Asia/Shanghai")
	var offset atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	e := start(t, 0, clock)
	l := time.Now().In(loc)
	eight := time.Date(l.Year(), l.Month(), l.Day(), 8, 0, 0, 0, loc)
	offset.Store(int64(time.Until(eight.Add(-3 * time.Second))))
	e.confirm("reviewer2", "r2@example.org", "en")
	prefs := notify.DefaultPrefs("en")
	prefs.Kinds["review_requested"] = notify.ModeDigest
	prefs.TimeZone, prefs.DigestHour = "Asia/Shanghai", 8
	if err := e.svc.SetPrefs(e.ctx, "reviewer2", prefs); err != nil {
		t.Fatal(err)
	}
	ps := e.openProposals("reviewer2", 2)
	e.request(ps[0], "reviewer2")
	e.request(ps[1], "reviewer2")
	d := e.relay.await(t, "r2@example.org", "digest")
	text, html := parts(t, d)
	for _, p := range ps {
		contains(t, "digest text", text, "https://rank.example/desk/proposals/"+p)
		contains(t, "digest HTML", html, `href="https://rank.example/desk/proposals/`+p+`"`)
	}
	if !strings.Contains(d.Msg.Header.Get("List-Unsubscribe"), "/mail/unsubscribe?token=") {
		t.Errorf("digest List-Unsubscribe = %q", d.Msg.Header.Get("List-Unsubscribe"))
	}
	digests := 0
	for _, m := range e.relay.all() {
		if m.To == "r2@example.org" && !strings.Contains(decodedSubject(m), "Confirm") {
			digests++
		}
	}
	if digests != 1 {
		t.Errorf("reviewer2 got %d mails besides the confirmation, want 1 digest", digests)
	}
	// The next digest is scheduled, a day later.
	next := "reviewer2." + strconv.FormatInt(eight.AddDate(0, 0, 1).Unix(), 10)
	nc, err := e.js.Server.Connect("test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	st, err := js.Stream(e.ctx, crjs.ScheduleStreamName)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, err := st.GetLastMsgForSubject(e.ctx, crjs.OnceSubject(DigestKind, next)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no digest scheduled at %s", next)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
