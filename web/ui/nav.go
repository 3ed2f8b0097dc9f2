package ui

import (
	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/paths"
)

// NavItem is one link of the main navigation.
type NavItem struct {
	ID, Label string
	Href      templ.SafeURL
	Current   bool
}

// Nav lists the navigation for this user: the public rankings for all; the
// desk for the signed-in; readers' reports for editors; publishing and the webhook log for publishers;
// users for admins.
func (p Page) Nav() []NavItem {
	items := []NavItem{{ID: "rankings", Label: p.T("nav.rankings"), Href: paths.Home}}
	if p.User != nil {
		items = append(items,
			NavItem{ID: "dashboard", Label: p.T("nav.dashboard"), Href: paths.Desk},
			NavItem{ID: "audit", Label: p.T("nav.audit"), Href: paths.Audit},
			NavItem{ID: "search", Label: p.T("nav.search"), Href: paths.Search})
		if p.Has(domain.RoleEditor) {
			items = append(items, NavItem{ID: "reports", Label: p.T("nav.reports"), Href: paths.Reports})
		}
		if p.Has(domain.RoleReviewer) {
			items = append(items, NavItem{ID: "review", Label: p.T("nav.review"), Href: paths.Review})
		}
		if p.Has(domain.RolePublisher) {
			items = append(items, NavItem{ID: "publish", Label: p.T("nav.publish"), Href: paths.Publish},
				NavItem{ID: "webhooks", Label: p.T("nav.webhooks"), Href: paths.Webhooks})
		}
		if p.Has(domain.RoleAdmin) {
			items = append(items, NavItem{ID: "users", Label: p.T("nav.users"), Href: paths.Users})
		}
	}
	for i := range items {
		items[i].Current = items[i].ID == p.Section
	}
	return items
}
