package auth_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// An invited reviewer opens their link in a real browser, clicks "Sign in
// with Newsroom ID", signs in on the provider's own login page and lands
// on the desk with the role the admin gave; the audit trail says the
// events came through the provider.
func TestBrowserOIDCSignIn(t *testing.T) {
	browsertest.SkipShort(t)
	ctx := browsertest.NewBrowser(t, 1280, 1024)
	// The desk listens first: the provider must know its callback.
	var h atomic.Pointer[http.Handler]
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*h.Load()).ServeHTTP(w, r) }))
	defer ts.Close()
	e := newOIDCEnvAt(t, ts.URL)
	handler := e.Srv.Handler()
	h.Store(&handler)
	defer e.Srv.CloseStreams()
	link := e.invite("nina", domain.RoleReviewer)

	browsertest.Browse(t, ctx,
		chromedp.Navigate(ts.URL+link+"&lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="welcome-oidc"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="welcome-oidc"]`)),
		// The provider's own page.
		chromedp.WaitVisible(chromedp.CSS(`#username`)),
		chromedp.SendKeys(chromedp.CSS(`#username`), opUser),
		chromedp.SendKeys(chromedp.CSS(`#password`), opPassword),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="dashboard"]`)),
	)
	if loc := browsertest.Value(t, ctx, chromedp.Location()); loc != ts.URL+paths.Desk {
		t.Errorf("after signing in, the browser is at %q", loc)
	}
	// The reviewer's queue opens: the role is the invitation's.
	browsertest.Browse(t, ctx,
		chromedp.Navigate(ts.URL+paths.Review),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="review"]`)),
	)
	e.CaughtUp()
	browsertest.Browse(t, ctx,
		chromedp.Navigate(ts.URL+paths.Audit+"?actor=nina"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="audit-row-via"]`)),
	)
	via := browsertest.Value(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid="audit-row-via"]`)))
	if !strings.Contains(via, e.op.issuer) || !strings.Contains(via, "OpenID Connect") {
		t.Errorf("the audit trail says %q, want the provider %s through OpenID Connect", via, e.op.issuer)
	}
}
