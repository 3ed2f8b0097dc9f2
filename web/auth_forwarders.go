package web

import "github.com/crossrank/crossrank/web/paths"

// Forwarders for the sign-in files (auth.go, login.go and their tests)
// only: another branch moves them to web/auth, so they are left untouched
// here. Delete this file when they move.
const (
	pathHome    = paths.Home
	pathLogin   = paths.Login
	pathDesk    = paths.Desk
	pathAccount = paths.Account
)
