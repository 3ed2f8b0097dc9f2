package web

// Paths of the site. The desk paths are served by the desk pages; the
// layout links to them.
const (
	pathHome    = "/"
	pathLogin   = "/login"
	pathLogout  = "/logout"
	pathDesk    = "/desk"
	pathAudit   = "/desk/audit"
	pathPublish = "/desk/publish"
	pathUsers   = "/desk/users"
	pathAPI     = "/api/"
)
