// Package paths names the addresses of the site that more than one area
// links to: the page shell's navigation, sign-in, the desk's pages. Each
// area still lists its own routes; these constants keep the links and the
// routes in step.
package paths

import "net/url"

// Paths of the site.
const (
	Home    = "/"
	Login   = "/login"
	Logout  = "/logout"
	Desk    = "/desk"
	Audit   = "/desk/audit"
	Publish = "/desk/publish"
	Users   = "/desk/users"
	// Webhooks is the delivery log, for publishers.
	Webhooks = "/desk/webhooks"
	Account  = "/desk/account"
	// Inbox is the signed-in user's inbox; InboxEvents streams its unread
	// count (text/event-stream, event "unread") to the header's badge.
	Inbox       = "/desk/inbox"
	InboxEvents = "/desk/events"
	API         = "/api/"
	// Review is the review queue: many proposals, batch votes.
	Review = "/desk/review"
	// Welcome is where a one-time link (an invitation or a reset) lets a
	// person choose their password; it needs no sign-in.
	Welcome = "/welcome"
	// Reports is the editors' triage queue of readers' reports.
	Reports = "/desk/reports"
	// Search finds entries, proposals and evidence (?q=).
	Search = "/desk/search"
	// Import takes a ranking file or CSV to check and import; APIImports
	// is its JSON door. Both take a body of up to httpx.MaxUpload.
	Import     = "/desk/import"
	APIImports = "/api/v1/imports"
)

// LoginURL returns the sign-in page that comes back to next afterwards (a
// path on this site; "" or the home page need no note).
func LoginURL(next string) string {
	if next == "" || next == Home {
		return Login
	}
	return Login + "?next=" + url.QueryEscape(next)
}
