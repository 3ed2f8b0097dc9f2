package web

import (
	"bytes"
	"net/http"
	"net/url"
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
	url       *url.URL
}

// page returns the shared view model of the request. title is a catalog
// key; "" leaves the title to the caller.
func (s *Server) page(r *http.Request, titleKey, section string) Page {
	rq := httpx.FromContext(r.Context())
	p := Page{Section: section, Lang: rq.Lang, User: rq.User, RequestID: rq.ID, url: r.URL}
	if titleKey != "" {
		p.Title = T(rq.Lang, titleKey)
	}
	return p
}

// T returns a catalog message in the page's language.
func (p Page) T(key string, args ...any) string { return T(p.Lang, key, args...) }

// Plural returns a counted catalog message in the page's language.
func (p Page) Plural(key string, n int) string { return Plural(p.Lang, key, n) }

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
	if p.Lang == langZh {
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

// navItem is one link of the main navigation.
type navItem struct {
	ID, Label string
	Href      templ.SafeURL
	Current   bool
}

// Nav lists the navigation for this user: the public rankings for all; the
// desk for the signed-in; publishing for publishers; users for admins.
func (p Page) Nav() []navItem {
	items := []navItem{{ID: "rankings", Label: p.T("nav.rankings"), Href: paths.Home}}
	if p.User != nil {
		items = append(items,
			navItem{ID: "dashboard", Label: p.T("nav.dashboard"), Href: paths.Desk},
			navItem{ID: "audit", Label: p.T("nav.audit"), Href: paths.Audit})
		if p.Has(domain.RolePublisher) {
			items = append(items, navItem{ID: "publish", Label: p.T("nav.publish"), Href: paths.Publish})
		}
		if p.Has(domain.RoleAdmin) {
			items = append(items, navItem{ID: "users", Label: p.T("nav.users"), Href: paths.Users})
		}
	}
	for i := range items {
		items[i].Current = items[i].ID == p.Section
	}
	return items
}

// render writes a templ component as the response with status (see
// httpx.Render); a component that fails yields a clean 500 page instead of
// half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	if err := httpx.Render(w, r, status, c); err != nil {
		s.fail(w, r, err)
	}
}

// errorView is the model of the error page.
type errorView struct {
	Page
	Status  int
	Message string
	SignIn  bool // offer the sign-in link (401)
}

// renderError renders the error page for status. It must not fail itself:
// if the template errs, a plain-text answer goes out.
func (s *Server) renderError(w http.ResponseWriter, r *http.Request, status int, err error) {
	p := s.page(r, "", "")
	p.Title = httpx.StatusTitle(p.Lang, status)
	v := errorView{Page: p, Status: status, Message: httpx.Message(p.Lang, err), SignIn: status == http.StatusUnauthorized}
	var buf bytes.Buffer
	if rerr := errorPage(v).Render(r.Context(), &buf); rerr != nil {
		s.log.Error("error page failed", "request_id", p.RequestID, "err", rerr)
		http.Error(w, p.Title, status)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = buf.WriteTo(w)
}
