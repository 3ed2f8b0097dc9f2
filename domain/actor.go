// Package domain holds Crossrank's aggregates (Ranking, Entry, Proposal,
// Edition, User), their pure Decide and Evolve functions, the
// cross-validation quorum, the ranking arithmetic and the command handler that
// loads, decides and appends through an events.Store.
//
// Everything here except Handler is pure: time and ids come in as arguments.
package domain

import "slices"

// The roles a user may hold; a user may hold several.
const (
	RoleEditor    = "editor"
	RoleReviewer  = "reviewer"
	RolePublisher = "publisher"
)

// Roles lists every role in display order.
var Roles = []string{RoleEditor, RoleReviewer, RolePublisher}

// SystemActor is the actor of commands run from the command line (the first
// users, the demo ranking). It holds every role.
const SystemActor = "system"

// Actor is the user a command runs for.
type Actor struct {
	Name  string
	Roles []string
}

// System returns the command-line actor.
func System() Actor { return Actor{Name: SystemActor, Roles: Roles} }

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
