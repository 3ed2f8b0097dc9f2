package domain

import (
	"slices"
	"strings"

	"github.com/crossrank/crossrank/events"
)

// A vendor is the company behind an entry. Its account holds the vendor
// role alone and is scoped to its own entries: it may open proposals on
// them (its evidence is always tier vendor), revise, submit and withdraw
// them, and write statements about them (reply.go); it never reviews,
// votes or publishes (it holds none of those roles), and it sees no other
// entry's drafts (Sees, which the pages and the API ask).

// MaxVendorEntries bounds the entries one vendor account is scoped to.
const MaxVendorEntries = 100

var (
	// ErrVendorScope: a vendor acting on an entry that is not its own.
	ErrVendorScope = kindErr(ErrForbidden, "vendor.scope")
)

// Vendor reports whether a is a vendor account, fenced to its entries.
func (a Actor) Vendor() bool { return a.Has(RoleVendor) }

// Sees reports whether a may see the drafts, proposals and desk pages of
// an entry: every signed-in account sees everything, except a vendor,
// which sees its own entries only.
func (a Actor) Sees(ranking, entry string) bool {
	if !a.Vendor() {
		return true
	}
	return entry != "" && slices.Contains(a.Entries, VendorEntry(ranking, entry))
}

// VendorEntry names an entry in a vendor's scope: "ranking/entry".
func VendorEntry(ranking, entry string) string { return ranking + "/" + entry }

// ParseVendorEntries reads a comma-separated list of "ranking/entry"
// (the command line's --entries, the desk form's field) into a checked,
// sorted list without repeats.
func ParseVendorEntries(s string) ([]string, error) {
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return CheckVendorEntries(out)
}

// CheckVendorEntries checks a vendor's scope: 1 to MaxVendorEntries
// entries, each "ranking/entry" of two slugs; it returns them sorted,
// without repeats.
func CheckVendorEntries(entries []string) ([]string, error) {
	if len(entries) == 0 {
		return nil, invalid("entries", "vendor.entries_required", nil)
	}
	if len(entries) > MaxVendorEntries {
		return nil, invalid("entries", "vendor.too_many_entries", Args{"limit": MaxVendorEntries})
	}
	for _, e := range entries {
		ranking, entry, ok := strings.Cut(e, "/")
		if !ok || CheckSlug("entries", ranking) != nil || CheckSlug("entries", entry) != nil {
			return nil, invalid("entries", "vendor.bad_entry", Args{"entry": e})
		}
	}
	return slices.Compact(slices.Sorted(slices.Values(entries))), nil
}

// checkVendorRoles holds the rules of a new account's roles and scope: a
// vendor holds the vendor role alone, with its entries; nobody else has
// entries. It returns the scope to record (nil: none).
func checkVendorRoles(roles, entries []string) ([]string, error) {
	if !slices.Contains(roles, RoleVendor) {
		if len(entries) > 0 {
			return nil, invalid("entries", "vendor.entries_not_vendor", nil)
		}
		return nil, nil
	}
	if len(slices.Compact(slices.Sorted(slices.Values(roles)))) > 1 {
		return nil, invalid("roles", "vendor.alone", nil)
	}
	return CheckVendorEntries(entries)
}

// withVendorScope appends the scope of a new vendor account to the event
// that creates it, in the same batch.
func withVendorScope(out []Change, username string, entries []string) []Change {
	if entries == nil {
		return out
	}
	return append(out, Change{UserID(username), &events.VendorEntriesSet{Entries: entries}})
}

// checkGrantWithVendor refuses a grant that would mix the vendor role with
// another: a vendor's account is created as one, with its scope.
func checkGrantWithVendor(u *User, role string) error {
	if role == RoleVendor || slices.Contains(u.Roles, RoleVendor) {
		return invalid("role", "vendor.alone", nil)
	}
	return nil
}

// proposalWriter is the rule for writing a proposal (opening, editing,
// revising, withdrawing): an editor, or a vendor on an existing entry of
// its own. A vendor writes no methodology and no new entry.
func proposalWriter(a Actor, ranking, entry string, methodology, newEntry bool) error {
	if !a.Vendor() || a.Name == "" {
		return a.require(RoleEditor)
	}
	if methodology || newEntry || !a.Sees(ranking, entry) {
		return ErrVendorScope
	}
	return nil
}

// vendorTier returns the tier of evidence a adds: a vendor's is always
// TierVendor, and naming another is refused.
func vendorTier(a Actor, t Tier) (Tier, error) {
	if !a.Vendor() {
		return t, nil
	}
	if t != "" && t != TierVendor {
		return "", invalid("tier", "vendor.tier", nil)
	}
	return TierVendor, nil
}
