package desk_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/webtest"
)

// scaleDesk is a desk over a ranking of n entries written by
// history.LargeRanking, a fifth of them left in review, with signed-in
// sessions for the ranking's editor (who authored every proposal), a
// reviewer who has voted on none and a publisher.
type scaleDesk struct {
	h        http.Handler
	read     *projections.Store
	sessions map[string]*http.Cookie // by role: "editor", "reviewer", "voter" (a reviewer who approved every ready proposal), "publisher"
	slug     string
}

// newScaleDesk builds the desk through web.New, the constructor serve
// uses, over read models rebuilt from the store.
func newScaleDesk(tb testing.TB, n int) *scaleDesk {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	tb.Cleanup(cancel)
	store := jstest.Start(tb).Store
	cmd := handler.New(store, nil)
	seed := int64(40 + n)
	slug, _, err := history.LargeRanking(ctx, store, history.ReadyEdition{Entries: n, Criteria: 2, Seed: seed,
		InReview: n / 5, PasswordHash: webtest.PasswordHash()})
	if err != nil {
		tb.Fatal(err)
	}
	for name, role := range map[string]string{"rev": domain.RoleReviewer, "pat": domain.RolePublisher} {
		if _, err := cmd.RegisterUser(ctx, domain.System(), domain.RegisterUser{Username: name, DisplayName: name,
			PasswordHash: webtest.PasswordHash(), Roles: []string{role}}); err != nil {
			tb.Fatal(err)
		}
	}
	path := filepath.Join(tb.TempDir(), "read.db")
	if _, err := projections.Rebuild(ctx, store, path); err != nil {
		tb.Fatal(err)
	}
	read, err := projections.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { read.Close() })
	srv, err := web.New(web.Config{Commands: cmd, Read: read, Logger: slog.New(slog.DiscardHandler),
		SessionKeys: [][]byte{webtest.SessionKey}})
	if err != nil {
		tb.Fatal(err)
	}
	d := &scaleDesk{h: srv.Handler(), read: read, slug: slug, sessions: map[string]*http.Cookie{}}
	editor := fmt.Sprintf("l%x-editor", uint32(seed))
	voter := fmt.Sprintf("l%x-rev1", uint32(seed))
	for role, user := range map[string]string{"editor": editor, "reviewer": "rev", "voter": voter, "publisher": "pat"} {
		d.sessions[role] = d.login(tb, user)
	}
	return d
}

func (d *scaleDesk) login(tb testing.TB, user string) *http.Cookie {
	tb.Helper()
	r := httptest.NewRequest(http.MethodPost, "/login", strings.NewReader(url.Values{"username": {user}, "password": {webtest.Password}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.RemoteAddr = "198.51.100.7:40000"
	w := httptest.NewRecorder()
	d.h.ServeHTTP(w, r)
	for _, c := range w.Result().Cookies() {
		if c.Name == auth.CookieName {
			return c
		}
	}
	tb.Fatalf("login %s: status %d", user, w.Code)
	return nil
}

// get answers target for the session of role.
func (d *scaleDesk) get(role, target string) (int, string) {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	r.RemoteAddr = "198.51.100.7:40000"
	r.Header.Set("Accept-Language", "en")
	r.AddCookie(d.sessions[role])
	w := httptest.NewRecorder()
	d.h.ServeHTTP(w, r)
	b, _ := io.ReadAll(w.Result().Body)
	return w.Code, string(b)
}

// scalePages are the desk pages whose cost should follow what they show.
var scalePages = []struct{ name, role, target string }{
	{"dashboard-reviewer", "reviewer", "/desk"},
	{"dashboard-voter", "voter", "/desk"},
	{"dashboard-editor", "editor", "/desk"},
	{"dashboard-publisher", "publisher", "/desk"},
	{"publish", "publisher", "/desk/publish"},
	{"inbox", "editor", "/desk/inbox"},
}

// BenchmarkDeskScale answers each desk page of scalePages at 100 and at
// 10,000 entries, one request after another, and reports the process's
// CPU time a request (cpu-ms/op): the aim is that 10,000 costs at most
// twice 100. Each size's desk is built once (about a minute at 10,000).
//
//	go test -run '^$' -bench DeskScale -benchtime 20x ./web/desk
func BenchmarkDeskScale(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			d := newScaleDesk(b, n)
			for _, pg := range scalePages {
				b.Run(pg.name, func(b *testing.B) {
					if code, body := d.get(pg.role, pg.target); code != http.StatusOK {
						b.Fatalf("%s: status %d: %.300s", pg.target, code, body)
					}
					start := cpuTime()
					for b.Loop() {
						d.get(pg.role, pg.target)
					}
					b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
				})
			}
		})
	}
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
