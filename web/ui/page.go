// Package ui is what every area of the site renders with: the page's
// shared view model and navigation, the layout, the form partials and their
// state after a failed submit, the error page (and Fail, which answers any
// failed request), and the embedded static assets.
package ui

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/paths"
)

// Page is the view model every page shares: the layout reads it, and a
// page's own view model embeds it. Templates call its methods for words,
// dates and links; they hold no logic of their own.
type Page struct {
	Title     string       // the page's own title; the layout appends "· Crossrank"
	Section   string       // the nav item to mark current: "rankings", "dashboard", "audit", "publish", "users"
	Lang      string       // "zh" or "en"
	User      *domain.User // nil: signed out
	Notice    string       // a message shown above the content
	RequestID string
	// Unread is the signed-in user's unread inbox count, shown in the
	// header when Inbox is set (on the desk's pages).
	Unread int
	Inbox  bool
	url    *url.URL
}

// PageOf returns the shared view model of the request. titleKey is a
// catalog key; "" leaves the title to the caller.
func PageOf(r *http.Request, titleKey, section string) Page {
	rq := httpx.FromContext(r.Context())
	p := Page{Section: section, Lang: rq.Lang, User: rq.User, RequestID: rq.ID, url: r.URL}
	p.Unread, p.Inbox = unreadOf(r.Context())
	if r.URL.Query().Get(behindParam) != "" {
		p.Notice = i18n.T(rq.Lang, "write.behind")
	} else if n, err := strconv.Atoi(r.URL.Query().Get(publishedParam)); err == nil && n > 0 && rq.User != nil {
		p.Notice = i18n.T(rq.Lang, "publish.done", n)
	}
	if titleKey != "" {
		p.Title = i18n.T(rq.Lang, titleKey)
	}
	return p
}

// behindParam marks the address a form's write leads to when this
// server's read models did not show the write before the redirect: the
// page says so (WithBehind).
const behindParam = "behind"

// WithBehind returns the address to with behindParam added, so the page it
// leads to says that the write is stored but may not show yet.
func WithBehind(to string) string {
	u, err := url.Parse(to)
	if err != nil {
		return to
	}
	q := u.Query()
	q.Set(behindParam, "1")
	u.RawQuery = q.Encode()
	return u.String()
}

// publishedParam marks the edition page a publisher lands on after
// publishing it: the page says "Edition n published". Only a signed-in
// user's page says it, as only theirs is built for them alone: a reader's
// comes from the shared cache, keyed without it.
const publishedParam = "published"

// WithPublished returns the address to with publishedParam set to edition n.
func WithPublished(to string, n int) string {
	u, err := url.Parse(to)
	if err != nil {
		return to
	}
	q := u.Query()
	q.Set(publishedParam, strconv.Itoa(n))
	u.RawQuery = q.Encode()
	return u.String()
}

// SetURL sets the address the page's own links (the language switch,
// sign-in) come back to; PageOf starts from the request's.
func (p *Page) SetURL(u *url.URL) { p.url = u }

// T returns a catalog message in the page's language.
func (p Page) T(key string, args ...any) string { return i18n.T(p.Lang, key, args...) }

// Plural returns a counted catalog message in the page's language.
func (p Page) Plural(key string, n int) string { return i18n.Plural(p.Lang, key, n) }

// Date formats t as a date in the page's language.
func (p Page) Date(t time.Time) string { return i18n.Date(p.Lang, t) }

// DateTime formats t with the time of day in the page's language.
func (p Page) DateTime(t time.Time) string { return i18n.DateTime(p.Lang, t) }

// Day formats a YYYY-MM-DD day in the page's language.
func (p Page) Day(day string) string { return i18n.Day(p.Lang, day) }

// Has reports whether the signed-in user holds role.
func (p Page) Has(role string) bool { return p.User != nil && p.User.Actor().Has(role) }

// HTMLLang is the page's lang attribute.
func (p Page) HTMLLang() string {
	if p.Lang == i18n.Zh {
		return "zh-Hans"
	}
	return "en"
}

// DocTitle is the document title.
func (p Page) DocTitle() string {
	if p.Title == "" {
		return "Crossrank"
	}
	return p.Title + " · Crossrank"
}

// UserName is the signed-in user's display name (or username).
func (p Page) UserName() string {
	if p.User == nil {
		return ""
	}
	if p.User.DisplayName != "" {
		return p.User.DisplayName
	}
	return p.User.Username
}

// StatusLabel names a proposal status in the page's language.
func (p Page) StatusLabel(st domain.Status) string { return p.T("status." + string(st)) }

// RoleLabel names a role in the page's language.
func (p Page) RoleLabel(role string) string { return p.T("role." + role) }

// LangURL returns this page's address with the language switched to lang.
func (p Page) LangURL(lang string) templ.SafeURL {
	if p.url == nil {
		return templ.SafeURL("?lang=" + lang)
	}
	q := p.url.Query()
	q.Set("lang", lang)
	// SafeURL is sound here: the result is always a path on this site, never
	// a scheme or another host ("//host" is cut to "/").
	path := p.url.EscapedPath()
	if !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "//") {
		path = "/"
	}
	return templ.SafeURL(path + "?" + q.Encode())
}

// LoginURL returns the sign-in page that comes back here.
func (p Page) LoginURL() templ.SafeURL {
	if p.url == nil || p.url.Path == paths.Login {
		return templ.SafeURL(paths.Login)
	}
	return templ.SafeURL(paths.LoginURL(p.url.RequestURI()))
}
