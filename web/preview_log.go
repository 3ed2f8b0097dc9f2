package web

import (
	"net/http"
	"strings"
)

// loggedPath is the request's path as the logs record it: an embargoed
// preview's link carries its secret token in the path, which no log may
// keep (one-time links carry theirs in the query, which logs leave out).
func loggedPath(r *http.Request) string {
	if strings.HasPrefix(r.URL.Path, "/preview/") {
		return "/preview/…"
	}
	return r.URL.Path
}
