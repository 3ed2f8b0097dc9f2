package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// vendorRoutes are the signed-in routes a vendor account may use: its
// proposals' pages and forms, its inbox, its account, its statements and
// its entry's desk page. Every other desk page and signed-in API route
// answers a vendor 403: queues, review, publishing, search, the audit
// trail, users and webhooks list or show other entries' drafts. Routes
// with a proposal or an entry in their path are checked against the
// vendor's entries (domain.Actor.Sees) before their handler runs.
var vendorRoutes = func() map[string]bool {
	out := map[string]bool{}
	for _, p := range []string{
		"POST /desk/proposals",
		"GET /desk/proposals/{id}", "GET /desk/proposals/{id}/impact",
		"GET /desk/proposals/{id}/evidence/{evidence}/passage", "GET /desk/proposals/{id}/captures",
		"POST /desk/proposals/{id}/evidence", "POST /desk/proposals/{id}/evidence/remove",
		"POST /desk/proposals/{id}/changes", "POST /desk/proposals/{id}/changes/remove",
		"POST /desk/proposals/{id}/submit", "POST /desk/proposals/{id}/revise", "POST /desk/proposals/{id}/withdraw",
		"POST /desk/proposals/{id}/comments",
		"GET /desk/inbox", "POST /desk/inbox/read", "POST /desk/inbox/feed", "POST /desk/inbox/feed/revoke", "GET /desk/events",
		"GET /desk/account", "POST /desk/account/password", "POST /desk/account/tokens", "POST /desk/account/tokens/{token}/revoke",
		"GET /desk/entries/{ranking}/{entry}", "GET /desk/entries/{ranking}/{entry}/replies",
		"POST /desk/entries/{ranking}/{entry}/replies",

		"GET /api/v1/openapi.json", "GET /api/v1/proposals", "POST /api/v1/proposals", "GET /api/v1/proposals/{id}",
		"POST /api/v1/proposals/{id}/evidence", "DELETE /api/v1/proposals/{id}/evidence/{evidence}",
		"POST /api/v1/proposals/{id}/changes", "DELETE /api/v1/proposals/{id}/changes/{target}",
		"POST /api/v1/proposals/{id}/submit", "POST /api/v1/proposals/{id}/withdraw", "POST /api/v1/proposals/{id}/revise",
		"POST /api/v1/proposals/{id}/comments",
		"GET /api/v1/inbox", "POST /api/v1/inbox/read", "POST /api/v1/inbox/feed-token", "DELETE /api/v1/inbox/feed-token",
		"GET /api/v1/account", "POST /api/v1/account/password", "GET /api/v1/account/tokens", "POST /api/v1/account/tokens",
		"DELETE /api/v1/account/tokens/{token}",
		"POST /api/v1/rankings/{slug}/entries/{entry}/replies",
		// The public API's reads, which anyone may make.
		"GET /api/v1/rankings", "GET /api/v1/rankings/{slug}", "GET /api/v1/rankings/{slug}/editions",
		"GET /api/v1/rankings/{slug}/editions/{n}", "GET /api/v1/rankings/{slug}/entries/{entry}",
		"GET /api/v1/rankings/{slug}/corrections", "GET /api/v1/rankings/{slug}/methodology",
		"POST /api/v1/rankings/{slug}/reports",
	} {
		out[p] = true
	}
	return out
}()

// errVendorFenced answers a vendor on a route outside its fence.
var errVendorFenced = domain.ErrVendorScope

// vendorFence keeps a signed-in vendor to vendorRoutes, and to its own
// entries on them; everyone else passes untouched. It runs after
// authentication, before the routes.
func (s *Server) vendorFence(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := httpx.User(r.Context())
		if u == nil || !u.Actor().Vendor() || !fenced(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		a := u.Actor()
		_, pattern := s.mux.Handler(r)
		if pattern == "GET "+paths.Desk {
			// A vendor's desk is its inbox: the dashboard's queues are
			// every entry's.
			http.Redirect(w, r, paths.Inbox, http.StatusSeeOther)
			return
		}
		if !vendorRoutes[pattern] {
			ui.Fail(w, r, errVendorFenced)
			return
		}
		if err := s.vendorSees(r, a, pattern); err != nil {
			ui.Fail(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// fenced reports whether path is the desk's or the signed-in API's.
func fenced(path string) bool {
	return path == "/desk" || strings.HasPrefix(path, "/desk/") || strings.HasPrefix(path, "/api/") ||
		strings.HasPrefix(path, "/feeds/inbox/")
}

// vendorSees checks the proposal or the entry a route names against the
// vendor's entries. A proposal that does not exist is left to the route
// (404); one about another entry is 403, whatever its state. The proposal
// list answers a vendor only for one of its entries, named by ?ranking=
// and ?entry=.
func (s *Server) vendorSees(r *http.Request, a domain.Actor, pattern string) error {
	v := wildcards(pattern, r.URL.Path)
	switch {
	case pattern == "GET /api/v1/proposals":
		q := r.URL.Query()
		if !a.Sees(q.Get("ranking"), q.Get("entry")) {
			return errVendorFenced
		}
	case v["id"] != "":
		p, err := s.commands.Commands.Proposal(r.Context(), v["id"])
		if err != nil {
			return nil // the route answers (404)
		}
		if !a.Sees(p.Ranking, p.Entry) {
			return errVendorFenced
		}
	case v["entry"] != "":
		ranking := v["ranking"]
		if ranking == "" {
			ranking = v["slug"]
		}
		if !strings.HasPrefix(pattern, "GET /api/v1/rankings/") && !a.Sees(ranking, v["entry"]) {
			return errVendorFenced // the public entry's JSON is anyone's
		}
	}
	return nil
}

// wildcards returns the values of pattern's {name} segments in path.
func wildcards(pattern, path string) map[string]string {
	_, pat, _ := strings.Cut(pattern, " ")
	ps, xs := strings.Split(pat, "/"), strings.Split(path, "/")
	out := map[string]string{}
	for i, seg := range ps {
		if i < len(xs) && strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			if v, err := url.PathUnescape(xs[i]); err == nil {
				out[strings.Trim(seg, "{}")] = v
			}
		}
	}
	return out
}
