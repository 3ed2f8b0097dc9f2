// Package domain is Crossrank's rulebook: the aggregates (Ranking, Entry,
// Proposal, Edition, User), their pure Decide and Evolve functions, the
// errors with their codes, the cross-validation quorum, the ranking
// arithmetic and the canonical snapshot.
//
// Everything here is pure: time and ids come in as arguments, and nothing
// reads or writes a store. Package domain/handler loads the states a
// command decides on, asks the Decide functions here and appends what
// they return.
package domain

import (
	"slices"

	"github.com/crossrank/crossrank/events"
)

// The roles a user may hold; a user may hold several. RoleAdmin administers
// users (adds them, grants and revokes roles, resets passwords, revokes
// their tokens) and gives no editorial right: separating the two keeps one
// person from making themselves the reviewers a proposal needs.
const (
	RoleEditor    = "editor"
	RoleReviewer  = "reviewer"
	RolePublisher = "publisher"
	RoleAdmin     = "admin"
	// RoleVendor is held alone, by an account scoped to the entries that
	// are its own (see vendor.go).
	RoleVendor = "vendor"
)

// Roles lists every role in display order.
var Roles = []string{RoleEditor, RoleReviewer, RolePublisher, RoleAdmin, RoleVendor}

// systemRoles are the roles the command line holds: every role but the
// vendor's, which would fence it to a vendor's entries.
var systemRoles = []string{RoleEditor, RoleReviewer, RolePublisher, RoleAdmin}

// SystemActor is the actor of commands run from the command line (the first
// users, the demo ranking). It holds every role.
const SystemActor = "system"

// Actor is the user a command runs for, and how they signed in: the handler
// records Via on every event the command appends (ce-authvia). The zero Via
// records nothing.
type Actor struct {
	Name  string
	Roles []string
	Via   events.Via
	// Entries are a vendor's own entries, each "ranking/entry" (see
	// Sees); nil for everyone else.
	Entries []string
}

// System returns the command-line actor, signed in by the command line.
func System() Actor {
	return Actor{Name: SystemActor, Roles: systemRoles, Via: events.Via{Method: events.ViaCLI}}
}

// Worker returns the actor of a worker inside the server (the capture
// worker): the system, holding no role, signed in as a worker. It can do
// only what the Decide functions reserve for the system.
func Worker() Actor {
	return Actor{Name: SystemActor, Via: events.Via{Method: events.ViaWorker}}
}

// IsSystem reports whether a is the command-line actor. No user can be
// named SystemActor (CheckUsername refuses it).
func (a Actor) IsSystem() bool { return a.Name == SystemActor }

// Has reports whether the actor holds role.
func (a Actor) Has(role string) bool { return slices.Contains(a.Roles, role) }

func (a Actor) require(role string) error {
	if a.Name == "" || !a.Has(role) {
		return ErrRoleRequired
	}
	return nil
}

// ValidRole reports whether r is one of Roles.
func ValidRole(r string) bool { return slices.Contains(Roles, r) }
